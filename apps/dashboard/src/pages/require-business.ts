/** Pages that act for one business show a call to action when there is none. */
import type { Business } from "@timbre/sdk";
import { h, replace } from "../lib/dom.js";
import type { PageContext } from "../router.js";
import { state } from "../state.js";
import { empty, link, pageHeader } from "../ui/components.js";

export function requireBusiness(ctx: PageContext, title: string): Business | null {
  const b = state.business();
  if (b) return b;
  replace(
    ctx.main,
    pageHeader(title),
    empty("Primero registra una empresa.", h("p", null, "Los folios, claves, webhooks y documentos pertenecen a una empresa."), link("/dashboard/empresas/nueva", "Registrar empresa", "btn")),
  );
  return null;
}
