/** The content of `Documento` before the TED, in file and canonical form at once. */
import type { DocumentInput } from "../document/types.js";
import type { Totals } from "../totals/index.js";
import { DualWriter } from "./dual-writer.js";
import { writeEmisor, writeIdDoc, writeReceptor, writeTransporte } from "./write-header.js";
import { writeDetalle, writeDscRcgGlobal, writeReferencias } from "./write-lines.js";
import { writeTotales } from "./write-totals.js";

/**
 * `T<tipo>F<folio>`: the `Documento/@ID` (an `xs:ID`, so it must not start with a digit).
 *
 * @example
 * documentId({ tipo: 33, folio: 1 }) // "T33F1"
 */
export const documentId = (input: Pick<DocumentInput, "tipo" | "folio">): string => `T${input.tipo}F${input.folio}`;

/**
 * `Encabezado` (IdDoc, Emisor, Receptor, Transporte on guías, Totales), `Detalle`×n, `DscRcgGlobal`, `Referencia`×n —
 * everything in `Documento` before `TED` — in file and canonical form. Does not validate.
 *
 * @example
 * const { file, canonical } = renderDocumentoBody(input, computeTotals(input));
 */
export function renderDocumentoBody(input: DocumentInput, totals: Totals): DualWriter {
  const w = new DualWriter();
  w.raw("<Encabezado>");
  writeIdDoc(w, input, totals);
  writeEmisor(w, input);
  writeReceptor(w, input);
  writeTransporte(w, input);
  writeTotales(w, input.tipo, totals);
  w.raw("</Encabezado>");
  writeDetalle(w, input, totals);
  writeDscRcgGlobal(w, input, totals);
  writeReferencias(w, input);
  return w;
}
