/** The list of businesses with certificate and webhook status, edit and delete. */
import type { Business } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { day } from "../lib/format.js";
import { describeError } from "../lib/messages.js";
import { navigate, type PageContext } from "../router.js";
import { state } from "../state.js";
import { badge, card, empty, link, notice, pageHeader, table } from "../ui/components.js";
import { confirmDialog } from "../ui/dialog.js";
import { certificateBadge } from "./certificate.js";

export async function businessesPage(ctx: PageContext): Promise<void> {
  await state.reloadBusinesses();
  const list = state.businesses();
  const message = h("div", { "aria-live": "polite" });
  const header = pageHeader("Empresas", "Los emisores de tus documentos: datos tributarios, certificado digital y webhook.", link("/dashboard/empresas/nueva", "Nueva empresa", "btn"));
  if (list.length === 0) {
    replace(ctx.main, header, empty("Aún no tienes empresas.", h("p", null, "Registra tu empresa para subir su certificado y sus folios."), link("/dashboard/empresas/nueva", "Registrar empresa", "btn")));
    return;
  }
  const rows = table<Business>("Empresas registradas", [
    { label: "Razón social", cell: (b) => link(`/dashboard/empresas/${b.id}`, b.razon_social) },
    { label: "RUT", cell: (b) => h("span", { class: "mono" }, b.rut) },
    { label: "Certificado", cell: (b) => certificateBadge(b) },
    { label: "Webhook", cell: (b) => (b.webhook_url ? badge("Configurado", "ok") : badge("Sin configurar", "neutral")) },
    { label: "Creada", cell: (b) => day(b.created_at) },
    {
      label: "Acciones",
      className: "cell-actions",
      cell: (b) =>
        h(
          "div",
          { class: "row-actions" },
          link(`/dashboard/empresas/${b.id}`, "Editar", "btn btn-secondary btn-small"),
          h("button", { type: "button", class: "btn btn-danger-ghost btn-small", onclick: () => void remove(b, message) }, "Eliminar"),
        ),
    },
  ], list);
  replace(ctx.main, header, message, card(null, rows));
}

export async function remove(b: Business, message: HTMLElement): Promise<void> {
  const ok = await confirmDialog({
    title: `¿Eliminar ${b.razon_social}?`,
    body: "Sus claves API se revocarán de inmediato. Los documentos emitidos se conservan (obligación tributaria de 6 años) y seguirán disponibles para descarga.",
    confirm: "Eliminar empresa",
    danger: true,
  });
  if (!ok) return;
  try {
    await api.del(`/businesses/${b.id}`);
    await state.reloadBusinesses();
    navigate("/empresas", true);
  } catch (error) {
    replace(message, notice("error", describeError(error)));
  }
}
