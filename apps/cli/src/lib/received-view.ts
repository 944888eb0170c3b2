import type { ReceivedDocument, ReceivedImportResult } from "@timbre/sdk";
import { TIPO_NAMES } from "./dte-view.js";
import { formatPesos, renderFields } from "./table.js";

/** The four checks of an import (API.md §12): "ok", or the failure, one word each. */
export function verificationLine({ verificacion: v }: ReceivedDocument): string {
  const checks = { firma: v.firma, timbre: v.timbre, caf: v.caf, receptor: v.receptor };
  const failed = Object.entries(checks).filter(([, value]) => value !== "ok");
  return failed.length === 0 ? "ok" : failed.map(([check, value]) => `${check}: ${value}`).join(", ");
}

/** The decision deadline as shown in a list or the detail: "—" until the SII has the document. */
export function deadline(doc: Pick<ReceivedDocument, "plazo_hasta">): string {
  return doc.plazo_hasta ?? "—";
}

/** `received show`, and the answer of accept/claim: the document, its checks, its deadline and its events. */
export function renderReceived(doc: ReceivedDocument): string {
  const events = doc.eventos.map((e) => `  ${[e.codigo, e.fecha ?? "?", e.rut_responsable, e.descripcion, `(${e.origen})`].filter(Boolean).join(" ")}`);
  return [
    renderFields({
      id: doc.id,
      documento: `${TIPO_NAMES[doc.tipo] ?? `Tipo ${doc.tipo}`} N° ${doc.folio}`,
      fecha: doc.fecha,
      emisor: `${doc.emisor.razon_social} (${doc.emisor.rut})`,
      neto: formatPesos(doc.monto_neto),
      exento: formatPesos(doc.monto_exento),
      iva: formatPesos(doc.monto_iva),
      total: formatPesos(doc.monto_total),
      estado: doc.estado,
      verificacion: verificationLine(doc),
      recibido_at: doc.recibido_at,
      recibido_sii_at: doc.recibido_sii_at ?? "—",
      plazo_hasta: deadline(doc),
      ...(doc.superseded_by ? { superseded_by: doc.superseded_by } : {}),
      environment: doc.environment,
    }),
    ...(events.length ? ["Eventos:", ...events] : []),
  ].join("\n");
}

/** `received import`: one line per document of the envelope. */
export function renderImport({ results }: ReceivedImportResult): string {
  if (results.length === 0) return "The envelope held no documents.";
  return results
    .map((r) => {
      if (!r.success || !r.data) return `#${r.index}  failed  ${r.error?.code ?? "ERROR"}: ${r.error?.message ?? ""}`.trimEnd();
      const d = r.data;
      const what = `${d.id}  ${d.tipo}/${d.folio} from ${d.emisor.rut}  ${formatPesos(d.monto_total)}`;
      return `#${r.index}  ${r.duplicate ? "duplicate" : "imported"}  ${what}  verificacion: ${verificationLine(d)}  estado: ${d.estado}  plazo_hasta: ${deadline(d)}`;
    })
    .join("\n");
}
