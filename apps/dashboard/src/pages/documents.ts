/** Documents of the selected business and environment: filters (kept in the URL), status badges, pagination. */
import type { Dte, Pagination, SalesSummary } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { ACCEPTANCE_ESTADOS, chileToday, day, ENV_NAMES, ESTADO_TONE, ESTADOS, money, monthOf, TIPOS, tipoName, taxTerm } from "../lib/format.js";
import { navigate, type PageContext } from "../router.js";
import { state } from "../state.js";
import { badge, card, empty, link, pageHeader, pager, table, takeFlash } from "../ui/components.js";
import { field } from "../ui/form.js";
import { downloadCsvForm } from "./documents-download.js";
import { requireBusiness } from "./require-business.js";

const FILTERS = ["tipo", "estado", "desde", "hasta", "folio", "receptor_rut", "aceptacion"] as const;

/** The receiver's answers a factura can be listed by (the registry's; not "not asked" or "not in it"). */
const ACCEPTANCE_FILTER: Array<[string, string]> = (["SIN_RESPUESTA", "ACEPTADO", "RECLAMADO", "ACEPTADO_TACITO"] as const).map((e) => [e, ACCEPTANCE_ESTADOS[e][0]]);

export async function documentsPage(ctx: PageContext): Promise<void> {
  const b = requireBusiness(ctx, "Documentos");
  if (!b) return;
  const q = ctx.query;
  const query: Record<string, string> = {};
  for (const f of FILTERS) {
    const v = q.get(f);
    if (v) query[f] = v;
  }
  const page = Math.max(1, Number(q.get("page") ?? "1") || 1);
  const period = query.desde && query.hasta ? { desde: query.desde, hasta: query.hasta } : null;
  const [result, summary] = await Promise.all([
    api.list<Dte>("/dte", { ...query, page, limit: 20 }),
    period ? api.get<SalesSummary>("/dte/resumen", period).catch(() => null) : Promise.resolve(null),
  ]);
  const go = (next: Record<string, string>, nextPage = 1) => {
    const params = new URLSearchParams(next);
    if (nextPage > 1) params.set("page", String(nextPage));
    const qs = params.toString();
    navigate(`/documentos${qs ? `?${qs}` : ""}`);
  };

  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filtrar documentos" },
    field({ name: "tipo", label: "Tipo", value: query.tipo ?? "", options: [["", "Todos"], ...Object.entries(TIPOS).map(([t, n]): [string, string] => [t, `${t} · ${n}`])] }),
    field({ name: "estado", label: "Estado", value: query.estado ?? "", options: [["", "Todos"], ...Object.entries(ESTADOS)] }),
    field({ name: "desde", label: "Desde", type: "date", value: query.desde ?? "" }),
    field({ name: "hasta", label: "Hasta", type: "date", value: query.hasta ?? "" }),
    field({ name: "folio", label: "Folio", type: "number", value: query.folio ?? "", attrs: { min: 1, inputmode: "numeric" } }),
    field({ name: "receptor_rut", label: "RUT receptor", value: query.receptor_rut ?? "", attrs: { placeholder: "76192083-9", autocomplete: "off" } }),
    field({ name: "aceptacion", label: "Respuesta del receptor", value: query.aceptacion ?? "", options: [["", "Todas"], ...ACCEPTANCE_FILTER] }),
    h("div", { class: "filter-actions" }, h("button", { type: "submit", class: "btn" }, "Filtrar"), h("button", { type: "button", class: "btn btn-secondary", onclick: () => go({}) }, "Limpiar")),
  );
  const months = h(
    "div",
    { class: "actions", role: "group", "aria-label": "Períodos" },
    h("span", { class: "small muted" }, "Período:"),
    h("button", { type: "button", class: "btn btn-secondary btn-small", onclick: () => go(monthOf(chileToday())) }, "Este mes"),
    h("button", { type: "button", class: "btn btn-secondary btn-small", onclick: () => go(monthOf(chileToday(), -1)) }, "Mes anterior"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    const data = new FormData(form);
    for (const f of FILTERS) {
      const v = String(data.get(f) ?? "").trim();
      if (v) next[f] = v;
    }
    go(next);
  });

  const filtered = Object.keys(query).length > 0;
  const listRegion = h("div", { "aria-live": "polite", "aria-busy": "false" });
  const draw = (docs: Dte[], pagination: Pagination) =>
    replace(
      listRegion,
      docs.length === 0
        ? filtered
          ? empty("Ningún documento coincide con los filtros.")
          : empty(
              "Aún no hay documentos en este ambiente.",
              h("p", null, "Emite aquí mismo, importa tus ventas desde una planilla (CSV), o emite desde tu sistema con una clave API (", h("code", null, "POST /v1/dte/emit"), ")."),
              h(
                "div",
                { class: "actions actions-center" },
                link("/dashboard/documentos/nuevo", "Emitir documento", "btn"),
                link("/dashboard/documentos/importar", "Importar Excel o CSV", "btn btn-secondary"),
                link("/dashboard/claves", "Crear una clave API", "btn btn-secondary"),
              ),
            )
        : h(
            "div",
            null,
            table<Dte>("Documentos emitidos", [
              { label: "Documento", cell: (d) => link(`/dashboard/documentos/${d.id}`, h("span", null, h("strong", null, `${tipoName(d.tipo)}`), ` N° ${d.folio}`)) },
              { label: "Fecha", cell: (d) => day(d.fecha) },
              { label: "Receptor", cell: (d) => h("span", null, d.receptor.razon_social, h("br"), h("span", { class: "mono small muted" }, d.receptor.rut)) },
              { label: "Total", cell: (d) => money(d.monto_total), className: "num" },
              { label: "Estado", cell: (d) => badge(ESTADOS[d.estado] ?? d.estado, ESTADO_TONE[d.estado] ?? "neutral") },
            ], docs),
            pager(pagination, (p) => go(query, p)),
            downloadCsvForm(query, pagination.total),
          ),
    );
  draw(result.data, result.pagination);

  // While documents on this page are still on their way to the SII, refresh the list (not the page) every 5 s.
  let timer: ReturnType<typeof setTimeout> | null = null;
  const inFlight = (docs: Dte[]) => docs.some((d) => d.estado === "PENDIENTE" || d.estado === "ENVIADO");
  const poll = () => {
    timer = setTimeout(async () => {
      try {
        const next = await api.list<Dte>("/dte", { ...query, page, limit: 20 });
        if (timer === null) return;
        draw(next.data, next.pagination);
        if (inFlight(next.data)) poll();
      } catch {
        /* keep the last list; the next navigation retries */
      }
    }, 5000);
  };
  if (inFlight(result.data)) poll();
  ctx.onLeave(() => {
    if (timer) clearTimeout(timer);
    timer = null;
  });

  replace(
    ctx.main,
    pageHeader("Documentos", `${b.razon_social} · ${ENV_NAMES[state.environment()]}`, [link("/dashboard/documentos/importar", "Importar Excel o CSV", "btn btn-secondary"), link("/dashboard/documentos/nuevo", "Emitir documento", "btn")]),
    takeFlash(),
    card(null, form, months),
    summary ? summaryCard(summary) : null,
    card(null, listRegion),
  );
}

/**
 * The period's sales by tipo (`GET /dte/resumen`), for the monthly IVA return: shown when the list is filtered by a
 * whole period (desde and hasta). It covers every document of the period, whatever the other filters.
 */
function summaryCard(s: SalesSummary): HTMLElement {
  const notes = [
    s.rechazados ? `${s.rechazados} rechazado${s.rechazados === 1 ? "" : "s"} por el SII, no considerado${s.rechazados === 1 ? "" : "s"}.` : null,
    s.sin_respuesta ? `${s.sin_respuesta} aún espera${s.sin_respuesta === 1 ? "" : "n"} la respuesta del SII: las cifras pueden cambiar.` : null,
    s.tipos.some((t) => t.tipo === 52) ? "Las guías de despacho se listan pero no suman al débito ni al total: la venta la lleva la factura que las sigue." : null,
  ].filter((n): n is string => n !== null);
  return card(
    `Resumen del ${day(s.desde)} al ${day(s.hasta)}`,
    s.tipos.length === 0
      ? h("p", { class: "muted" }, "No hay documentos en el período.")
      : table("Ventas por tipo de documento", [
          { label: "Tipo", cell: (t: SalesSummary["tipos"][number]) => `${tipoName(t.tipo)}${t.tipo === 61 ? " (resta)" : t.tipo === 52 ? " (no suma)" : ""}` },
          { label: "Documentos", cell: (t) => String(t.documentos), className: "num" },
          { label: "Neto", cell: (t) => money(t.monto_neto), className: "num" },
          { label: "Exento", cell: (t) => money(t.monto_exento), className: "num" },
          { label: "IVA", cell: (t) => money(t.monto_iva), className: "num" },
          { label: "Total", cell: (t) => money(t.monto_total), className: "num" },
        ], s.tipos),
    h(
      "dl",
      { class: "facts" },
      h("dt", null, "Débito fiscal (IVA)"),
      h("dd", null, h("strong", { "data-testid": "debito-fiscal" }, money(s.debito_fiscal))),
      ...(s.impuestos_adicionales ?? []).flatMap((t) => [
        h("dt", null, taxTerm(t)),
        h("dd", null, money(t.monto), " ", h("span", { class: "small muted" }, `sobre ${money(t.base)}`)),
      ]),
      h("dt", null, "Total, notas de crédito restadas"),
      h("dd", null, money(s.total_neto_de_notas)),
    ),
    ...notes.map((n) => h("p", { class: "small muted" }, n)),
    h("p", { class: "hint" }, "Considera todos los documentos del período, con independencia de los demás filtros. Es una ayuda para el F29, no la declaración."),
  );
}
