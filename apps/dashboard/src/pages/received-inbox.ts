/**
 * «Correos no importados» (`GET /received/inbox`, API.md §12): messages that reached the business's intercambio
 * address or mailbox (or uploads) but could not be imported, kept 30 days, each with its reason in Spanish.
 */
import type { ReceivedInboxItem } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { whenShort } from "../lib/format.js";
import { inboxReason } from "../lib/received-words.js";
import { navigate, type PageContext } from "../router.js";
import { card, empty, link, pageHeader, pager, table } from "../ui/components.js";
import { requireBusiness } from "./require-business.js";

const SOURCES: Record<string, string> = { smtp: "Correo de intercambio", imap: "Casilla IMAP", upload: "Subido" };

export async function receivedInboxPage(ctx: PageContext): Promise<void> {
  const b = requireBusiness(ctx, "Correos no importados");
  if (!b) return;
  const page = Math.max(1, Number(ctx.query.get("page") ?? "1") || 1);
  const result = await api.list<ReceivedInboxItem>("/received/inbox", { page, limit: 20 });
  replace(
    ctx.main,
    pageHeader("Correos no importados", "Mensajes de los últimos 30 días que llegaron pero no se pudieron importar.", link("/dashboard/recibidos", "← Recibidos", "btn btn-secondary")),
    card(
      null,
      result.data.length === 0
        ? empty("No hay correos con problemas.", h("p", null, "Todo lo que llegó se importó."))
        : h(
            "div",
            null,
            table<ReceivedInboxItem>("Correos no importados", [
              { label: "Llegó", cell: (m) => whenShort(m.created_at) },
              { label: "Por", cell: (m) => SOURCES[m.source] ?? m.source },
              { label: "Remitente", cell: (m) => h("span", { class: "wrap" }, m.from ?? "—", m.subject ? h("span", { class: "small muted" }, h("br"), m.subject) : null) },
              { label: "Archivo", cell: (m) => h("span", { class: "mono small wrap" }, m.filename ?? "—") },
              { label: "Motivo", cell: (m) => h("span", null, inboxReason(m.reason), h("br"), h("span", { class: "small muted wrap" }, m.detail)) },
            ], result.data),
            pager(result.pagination, (p) => navigate(`/recibidos/bandeja${p > 1 ? `?page=${p}` : ""}`)),
          ),
    ),
  );
}
