/**
 * One document: amounts, receptor, a guía's traslado and transport (`dispatch-summary.ts`), items, references,
 * status history, SII answer with rejection hints,
 * the receiver's acceptance or claim of a factura (`acceptance.ts`, loaded without holding the page), PDF preview
 * (fetched with the session and shown from a blob: URL), PDF (letter, 80 mm, the cedible copy of a factura or a guía) and XML
 * download, annulment, the delivery to the receiver and its answers (`delivery.ts`).
 */
import type { DteDetail, DteStatusResult } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { ESTADO_TONE, ESTADOS, TIPOS, money, number, price, tipoName, when, day, ENV_NAMES, taxTerm } from "../lib/format.js";
import { describeError } from "../lib/messages.js";
import { navigate, type PageContext } from "../router.js";
import { badge, card, link, notice, pageHeader, setFlash, table, takeFlash } from "../ui/components.js";
import { confirmDialog } from "../ui/dialog.js";
import { saveFile, showPdf as showPdfIn } from "../ui/files.js";
import { acceptancePanel } from "./acceptance.js";
import { deliveryPanel } from "./delivery.js";
import { dispatchSummary } from "./dispatch-summary.js";
import { INVOICED_TRANSFERS } from "./drafts.js";
import { siiPanel } from "./sii-status.js";

type PdfVariant = "carta" | "termica" | "cedible";
/** Tipos printed with a cedible copy (the one handed to a factoring company): facturas and guías de despacho. */
const CEDIBLE_TIPOS = new Set([33, 34, 52]);
const PDF_QUERY: Record<PdfVariant, Record<string, string> | undefined> = {
  carta: undefined,
  termica: { formato: "termica" },
  cedible: { cedible: "true" },
};

export async function documentPage(ctx: PageContext): Promise<void> {
  const d = await api.get<DteDetail>(`/dte/${ctx.params.id}`);
  const status = await api.get<DteStatusResult>(`/dte/${d.id}/status`).catch(() => null);
  const urls: string[] = [];
  ctx.onLeave(() => urls.forEach((u) => URL.revokeObjectURL(u)));
  const message = h("div", { "aria-live": "polite" });
  const preview = h("div", { class: "pdf-preview" });
  const title = `${tipoName(d.tipo)} N° ${d.folio}`;

  const download = (kind: "pdf" | "xml", variant: PdfVariant = "carta") => {
    const suffix = kind === "pdf" && variant !== "carta" ? `-${variant}` : "";
    return saveFile(() => api.blob(`/dte/${d.id}/${kind}`, kind === "pdf" ? PDF_QUERY[variant] : undefined), `DTE-${d.tipo}-${d.folio}${suffix}.${kind}`, urls, message);
  };
  const showPdf = () => showPdfIn(() => api.blob(`/dte/${d.id}/pdf`), title, urls, preview);
  const annul = async () => {
    const ok = await confirmDialog({
      title: `¿Anular ${title}?`,
      body: "Se emitirá una nota de crédito electrónica (tipo 61) que anula este documento por su monto total, con los mismos ítems y receptor. Consume un folio de notas de crédito y no se puede deshacer.",
      confirm: "Emitir nota de crédito",
      danger: true,
    });
    if (!ok) return;
    try {
      const nc = await api.post<DteDetail>(`/dte/${d.id}/anular`);
      setFlash(`Se emitió la nota de crédito N° ${nc.folio} que anula ${title}.`);
      navigate(`/documentos/${nc.id}`);
    } catch (error) {
      replace(message, notice("error", describeError(error)));
    }
  };

  const canAnnul = d.tipo !== 61 && d.estado !== "RECHAZADO";
  const actions = h(
    "div",
    { class: "actions" },
    h("button", { type: "button", class: "btn", onclick: () => void showPdf() }, "Ver PDF"),
    h("button", { type: "button", class: "btn btn-secondary", onclick: () => void download("pdf") }, "Descargar PDF"),
    // boletas go to 80 mm receipt printers; a factura's or a guía's cedible copy is the one handed to a factoring company
    h("button", { type: "button", class: "btn btn-secondary", onclick: () => void download("pdf", "termica") }, "PDF 80 mm"),
    CEDIBLE_TIPOS.has(d.tipo) ? h("button", { type: "button", class: "btn btn-secondary", onclick: () => void download("pdf", "cedible") }, "Copia cedible") : null,
    h("button", { type: "button", class: "btn btn-secondary", onclick: () => void download("xml") }, "Descargar XML"),
  );
  const followUps = h(
    "div",
    { class: "actions", role: "group", "aria-label": "Emitir a partir de este documento" },
    // the same client and lines again (a monthly invoice); a note copies its references, so notes are not copied
    d.tipo !== 56 && d.tipo !== 61 ? link(`/dashboard/documentos/nuevo?copiar=${d.id}`, "Emitir uno igual", "btn btn-secondary") : null,
    // a guía of a sale is billed by a factura that references it
    d.tipo === 52 && d.estado !== "RECHAZADO" && INVOICED_TRANSFERS.includes(d.traslado?.tipo ?? 0)
      ? link(`/dashboard/documentos/nuevo?facturar=${d.id}`, "Facturar esta guía", "btn btn-secondary")
      : null,
    // a partial correction (one line returned, a wrong price) is a note the user writes, starting from this document
    canAnnul ? link(`/dashboard/documentos/nuevo?tipo=61&referencia=${d.id}`, "Nota de crédito", "btn btn-secondary") : null,
    canAnnul ? link(`/dashboard/documentos/nuevo?tipo=56&referencia=${d.id}`, "Nota de débito", "btn btn-secondary") : null,
    canAnnul ? h("button", { type: "button", class: "btn btn-danger-ghost", onclick: () => void annul() }, "Anular") : null,
  );

  const totals = h(
    "dl",
    { class: "facts" },
    h("dt", null, "Fecha"),
    h("dd", null, day(d.fecha)),
    h("dt", null, "Receptor"),
    h("dd", null, d.receptor.razon_social, " ", h("span", { class: "mono small muted" }, d.receptor.rut)),
    h("dt", null, "Neto"),
    h("dd", null, money(d.monto_neto)),
    h("dt", null, "Exento"),
    h("dd", null, money(d.monto_exento)),
    h("dt", null, "IVA"),
    h("dd", null, money(d.monto_iva)),
    ...(d.impuestos_adicionales ?? []).flatMap((t) => [h("dt", null, taxTerm(t)), h("dd", null, money(t.monto))]),
    h("dt", null, "Total"),
    h("dd", null, h("strong", null, money(d.monto_total))),
    h("dt", null, "Track ID SII"),
    h("dd", { class: "mono" }, d.track_id ?? "—"),
    h("dt", null, "Ambiente"),
    h("dd", null, ENV_NAMES[d.environment] ?? d.environment),
  );
  const items = table("Detalle", [
    { label: "Ítem", cell: (i: DteDetail["items"][number]) => h("span", null, i.nombre, i.exento ? h("span", { class: "small muted" }, " (exento)") : null) },
    { label: "Cantidad", cell: (i) => number(i.cantidad), className: "num" },
    { label: "Precio", cell: (i) => price(i.precio), className: "num" },
    { label: "Monto", cell: (i) => money(i.monto), className: "num" },
  ], d.items ?? []);
  const refs =
    (d.referencias ?? []).length === 0
      ? null
      : card("Referencias", h("ul", { class: "plain" }, ...d.referencias.map((r) => h("li", null, `${TIPOS[Number(r.tipo_doc)] ?? `Tipo ${r.tipo_doc}`} N° ${r.folio} del ${day(r.fecha)}${r.razon ? `: ${r.razon}` : ""}`))));
  const history = h(
    "ol",
    { class: "timeline" },
    ...(status?.historial ?? d.historial ?? []).map((e) =>
      h("li", null, badge(ESTADOS[e.estado] ?? e.estado, ESTADO_TONE[e.estado] ?? "neutral"), " ", h("time", { datetime: e.at }, when(e.at)), e.detalle ? h("p", { class: "small muted" }, e.detalle) : null),
    ),
  );

  replace(
    ctx.main,
    pageHeader(title, h("span", null, badge(ESTADOS[d.estado] ?? d.estado, ESTADO_TONE[d.estado] ?? "neutral"), " ", `emitido ${when(d.fecha_emision)}`), link("/dashboard/documentos", "← Documentos", "btn btn-secondary")),
    takeFlash(),
    message,
    card(null, actions, followUps.childElementCount > 0 ? followUps : null, preview),
    h(
      "div",
      { class: "columns" },
      h("div", null, card("Resumen", totals), dispatchSummary(d), card("Ítems", items), refs),
      h("div", null, siiPanel(d, status), acceptancePanel(d, { annul: canAnnul ? () => void annul() : undefined }), deliveryPanel(d), card("Historial", history)),
    ),
  );
}
