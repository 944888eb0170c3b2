/**
 * One received document (API.md §12): emisor, amounts, items, references, the verification in words (which check
 * failed), its deadline, the registry's events, the PDF (preview and download), the XML as received, and the
 * decision panel (`received-decision.ts`).
 */
import type { ReceivedDocument } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { day, ENV_NAMES, money, number, price, when } from "../lib/format.js";
import { deadlineBadge, deadlineSentence, receivedTipoName, SIGNATURE_VARIANTS, verificationFailures } from "../lib/received-words.js";
import type { PageContext } from "../router.js";
import { badge, card, link, notice, pageHeader, table, takeFlash } from "../ui/components.js";
import { saveFile, showPdf as showPdfIn } from "../ui/files.js";
import { decisionPanel } from "./received-decision.js";

interface Line {
  nombre: string;
  cantidad: number | null;
  precio: number | null;
  monto: number;
}
interface Reference {
  tipo: string;
  folio: string;
  fecha: string | null;
  codigo: number | null;
  razon: string | null;
}

export async function receivedDetailPage(ctx: PageContext): Promise<void> {
  const d = await api.get<ReceivedDocument>(`/received/${ctx.params.id}`);
  const urls: string[] = [];
  ctx.onLeave(() => urls.forEach((u) => URL.revokeObjectURL(u)));
  const message = h("div", { "aria-live": "polite" });
  const preview = h("div", { class: "pdf-preview" });
  const title = `${receivedTipoName(d.tipo)} N° ${d.folio}`;

  const download = (kind: "pdf" | "xml") => saveFile(() => api.blob(`/received/${d.id}/${kind}`), `DTE-${d.emisor.rut}-${d.tipo}-${d.folio}.${kind}`, urls, message);
  const showPdf = () => showPdfIn(() => api.blob(`/received/${d.id}/pdf`), title, urls, preview);

  const actions = h(
    "div",
    { class: "actions" },
    h("button", { type: "button", class: "btn", onclick: () => void showPdf() }, "Ver PDF"),
    h("button", { type: "button", class: "btn btn-secondary", onclick: () => void download("pdf") }, "Descargar PDF"),
    h("button", { type: "button", class: "btn btn-secondary", onclick: () => void download("xml") }, "Descargar XML"),
  );

  const summary = h(
    "dl",
    { class: "facts" },
    h("dt", null, "Emisor"),
    h("dd", null, d.emisor.razon_social, " ", h("span", { class: "mono small muted" }, d.emisor.rut)),
    d.emisor.giro ? [h("dt", null, "Giro"), h("dd", null, d.emisor.giro)] : null,
    h("dt", null, "Fecha"),
    h("dd", null, day(d.fecha)),
    h("dt", null, "Neto"),
    h("dd", null, money(d.monto_neto)),
    h("dt", null, "Exento"),
    h("dd", null, money(d.monto_exento)),
    h("dt", null, "IVA"),
    h("dd", null, money(d.monto_iva)),
    h("dt", null, "Total"),
    h("dd", null, h("strong", null, money(d.monto_total))),
    h("dt", null, "Recibido"),
    h("dd", null, when(d.recibido_at)),
    h("dt", null, "Recibido por el SII"),
    h("dd", null, d.recibido_sii_at ? when(d.recibido_sii_at) : "Aún no"),
    h("dt", null, "Ambiente"),
    h("dd", null, ENV_NAMES[d.environment as "test" | "live"] ?? d.environment),
  );
  const items = table<Line>("Detalle", [
    { label: "Ítem", cell: (i) => i.nombre },
    { label: "Cantidad", cell: (i) => number(i.cantidad), className: "num" },
    { label: "Precio", cell: (i) => price(i.precio), className: "num" },
    { label: "Monto", cell: (i) => money(i.monto), className: "num" },
  ], d.items as Line[]);
  const refs = (d.referencias as Reference[]).length === 0
    ? null
    : card("Referencias", h("ul", { class: "plain" }, ...(d.referencias as Reference[]).map((r) => h("li", null, `${receivedTipoName(Number(r.tipo))} N° ${r.folio}${r.fecha ? ` del ${day(r.fecha)}` : ""}${r.razon ? `: ${r.razon}` : ""}`))));

  const deadline = card("Plazo", h("p", null, badge(...deadlineBadge(d))), h("p", { class: "small muted" }, deadlineSentence(d)));
  deadline.dataset.testid = "plazo";
  const events = card(
    "Eventos",
    d.eventos.length === 0
      ? h("p", { class: "small muted" }, "Sin aceptaciones ni reclamos registrados.")
      : table<ReceivedDocument["eventos"][number]>("Aceptaciones y reclamos", [
          { label: "Código", cell: (e) => h("strong", { class: "mono" }, e.codigo) },
          { label: "Descripción", cell: (e) => e.descripcion },
          { label: "Responsable", cell: (e) => h("span", { class: "mono" }, e.rut_responsable ?? "—") },
          { label: "Fecha", cell: (e) => when(e.fecha) },
          { label: "Origen", cell: (e) => (e.origen === "sii" ? "SII (sii.cl u otro sistema)" : "Timbre") },
        ], d.eventos),
  );

  replace(
    ctx.main,
    pageHeader(title, h("span", null, badge(...deadlineBadge(d)), " ", `de ${d.emisor.razon_social}`), link("/dashboard/recibidos", "← Recibidos", "btn btn-secondary")),
    takeFlash(),
    message,
    card(null, actions, preview),
    h(
      "div",
      { class: "columns" },
      h("div", null, card("Resumen", summary), card("Ítems", items), refs),
      h("div", null, verificationCard(d), deadline, decisionPanel(d), events),
    ),
  );
}

/** Whether the document is authentic and addressed to the business, and, when not, which check failed. */
function verificationCard(d: ReceivedDocument): HTMLElement {
  const failures = verificationFailures(d.verificacion);
  const variant = d.verificacion.firma_variante ? SIGNATURE_VARIANTS[d.verificacion.firma_variante] : undefined;
  const panel = card(
    "Verificación",
    failures.length === 0
      ? notice("success", "Documento verificado: firma, timbre electrónico, CAF del SII y receptor correctos.", variant ? h("span", { class: "small" }, ` Firma ${variant}.`) : null)
      : notice("error", h("strong", null, "El documento no pasó la verificación. "), "Se guarda como evidencia y solo se puede reclamar.", h("ul", null, ...failures.map((f) => h("li", null, f)))),
    d.superseded_by ? h("p", { class: "small" }, "Llegó una copia verificada: ", link(`/dashboard/recibidos/${d.superseded_by}`, "ver la copia verificada"), ".") : null,
  );
  panel.dataset.testid = "verificacion";
  return panel;
}
