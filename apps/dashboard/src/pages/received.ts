/**
 * «Recibidos»: the documents suppliers sent the business (API.md §12), newest first, with filters kept in the URL,
 * pagination and each one's deadline badge (8 days to accept or claim, from `plazo_hasta` and `estado`).
 */
import type { ReceivedDocument } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { day, ENV_NAMES, money } from "../lib/format.js";
import { deadlineBadge, isVerified, RECEIVED_ESTADOS, RECEIVED_TIPOS, receivedTipoName } from "../lib/received-words.js";
import { navigate, type PageContext } from "../router.js";
import { state } from "../state.js";
import { badge, card, empty, link, pageHeader, pager, table, takeFlash } from "../ui/components.js";
import { field } from "../ui/form.js";
import { requireBusiness } from "./require-business.js";

const FILTERS = ["emisor_rut", "tipo", "estado", "desde", "hasta"] as const;

export async function receivedPage(ctx: PageContext): Promise<void> {
  const b = requireBusiness(ctx, "Recibidos");
  if (!b) return;
  const query: Record<string, string> = {};
  for (const f of FILTERS) {
    const v = ctx.query.get(f);
    if (v) query[f] = v;
  }
  const page = Math.max(1, Number(ctx.query.get("page") ?? "1") || 1);
  const result = await api.list<ReceivedDocument>("/received", { ...query, page, limit: 20 });
  const go = (next: Record<string, string>, nextPage = 1) => {
    const params = new URLSearchParams(next);
    if (nextPage > 1) params.set("page", String(nextPage));
    const qs = params.toString();
    navigate(`/recibidos${qs ? `?${qs}` : ""}`);
  };

  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filtrar documentos recibidos" },
    field({ name: "emisor_rut", label: "RUT emisor", value: query.emisor_rut ?? "", attrs: { placeholder: "76192083-9", autocomplete: "off" } }),
    field({ name: "tipo", label: "Tipo", value: query.tipo ?? "", options: [["", "Todos"], ...Object.entries(RECEIVED_TIPOS).map(([t, n]): [string, string] => [t, `${t} · ${n}`])] }),
    field({ name: "estado", label: "Estado", value: query.estado ?? "", options: [["", "Todos"], ...Object.entries(RECEIVED_ESTADOS).map(([e, [label]]): [string, string] => [e, label])] }),
    field({ name: "desde", label: "Desde", type: "date", value: query.desde ?? "" }),
    field({ name: "hasta", label: "Hasta", type: "date", value: query.hasta ?? "" }),
    h("div", { class: "filter-actions" }, h("button", { type: "submit", class: "btn" }, "Filtrar"), h("button", { type: "button", class: "btn btn-secondary", onclick: () => go({}) }, "Limpiar")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const next: Record<string, string> = {};
    for (const f of FILTERS) {
      const v = String(data.get(f) ?? "").trim();
      if (v) next[f] = v;
    }
    go(next);
  });

  const docs = result.data;
  const list =
    docs.length === 0
      ? Object.keys(query).length > 0
        ? empty("Ningún documento recibido coincide con los filtros.")
        : empty(
            "Aún no hay documentos recibidos en este ambiente.",
            h("p", null, "Llegan solos al correo de intercambio de la empresa (regístralo en el SII desde la ficha de la empresa), o súbelos con «Importar XML»."),
            h("div", { class: "actions actions-center" }, link(`/dashboard/empresas/${b.id}`, "Ver el correo de intercambio", "btn btn-secondary")),
          )
      : h(
          "div",
          null,
          table<ReceivedDocument>("Documentos recibidos", [
            { label: "Documento", cell: (d) => link(`/dashboard/recibidos/${d.id}`, h("span", null, h("strong", null, receivedTipoName(d.tipo)), ` N° ${d.folio}`)) },
            { label: "Fecha", cell: (d) => day(d.fecha) },
            { label: "Emisor", cell: (d) => h("span", null, d.emisor.razon_social, h("br"), h("span", { class: "mono small muted" }, d.emisor.rut)) },
            { label: "Total", cell: (d) => money(d.monto_total), className: "num" },
            { label: "Plazo", cell: (d) => h("span", null, badge(...deadlineBadge(d)), isVerified(d) ? null : [" ", badge("No verificado", "bad")]) },
          ], docs),
          pager(result.pagination, (p) => go(query, p)),
        );

  replace(
    ctx.main,
    pageHeader("Recibidos", `${b.razon_social} · ${ENV_NAMES[state.environment()]}`, [
      link("/dashboard/recibidos/bandeja", "Correos no importados", "btn btn-secondary"),
      link("/dashboard/recibidos/importar", "Importar XML", "btn"),
    ]),
    takeFlash(),
    card(null, h("p", { class: "hint" }, "Facturas y otros documentos que tus proveedores te enviaron. Las facturas se aceptan o reclaman dentro de 8 días desde que el SII las recibió (Ley 19.983); si no las reclamas, quedan aceptadas tácitamente."), form),
    card(null, list),
  );
}
