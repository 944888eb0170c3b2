/** Which line of the SII's per-document detail (boleta REST `detalle_rep_rech`) is about a document. */
import type { DocumentVerdict, EnvelopeStatus } from "@timbre/sii";

/**
 * This document's line: null when the detail has none for it (the SII lists only rejected and repaired documents),
 * "unsure" when a line without tipo carries its folio in an envelope of several tipos (a 39 and a 41 may share a
 * folio number), so the detail cannot decide and QueryEstDte must.
 */
export function lineOf(status: Pick<EnvelopeStatus, "documents">, doc: { tipo: number; folio: number }): DocumentVerdict | null | "unsure" {
  const lines = status.documents?.filter((d) => d.folio === doc.folio && (d.tipo === doc.tipo || d.tipo === null)) ?? [];
  return lines.find((d) => d.tipo === doc.tipo) ?? (lines.length > 0 ? "unsure" : null);
}
