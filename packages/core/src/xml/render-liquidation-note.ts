/**
 * The content of the `Documento` of a debit/credit note (56/61) on a liquidación-factura (43) before the TED. The
 * note repeats what it annuls or corrects: the settled documents as `Detalle` lines (no `TpoDocLiq`, which exists
 * only in `Liquidacion`), the commissions in `Totales/Comisiones` and as `Comisiones` lines after `Referencia`, so
 * its `MntTotal` is the 43's `neto + exento + IVA − ValComNeto − ValComExe − ValComIVA` (formato DTE A121–A124,
 * zone F; DTE_v10 `Documento` has both elements, typed `MontoType`).
 */
import type { LiquidationDocumentInput } from "../document/liquidation-document.js";
import type { DocumentInput } from "../document/types.js";
import type { LiquidationTotals } from "../totals/liquidation-totals.js";
import { DualWriter } from "./dual-writer.js";
import { writeCommissionLines, writeLiquidationTotals, writeSettledDocuments } from "./write-liquidation.js";
import { writeEmisor, writeReceptor } from "./write-header.js";
import { writeReferencias } from "./write-lines.js";

/**
 * Writes `Encabezado`, `Detalle`×n, `Referencia`×n and `Comisiones`×n. Does not validate.
 *
 * @example
 * const { file } = renderLiquidationNoteBody(note, computeLiquidationTotals(note));
 */
export function renderLiquidationNoteBody(input: LiquidationDocumentInput, totals: LiquidationTotals): DualWriter {
  // The header and reference writers read only the parties, the references and whether the tipo is a boleta.
  const asDocument = input as unknown as DocumentInput;
  const w = new DualWriter();
  w.raw("<Encabezado><IdDoc>").value("TipoDTE", input.tipo).value("Folio", input.folio).text("FchEmis", input.fecha);
  if (input.formaPago !== undefined) w.value("FmaPago", input.formaPago);
  w.raw("</IdDoc>");
  writeEmisor(w, asDocument);
  writeReceptor(w, asDocument);
  writeLiquidationTotals(w, totals);
  writeSettledDocuments(w, input.documentos, false);
  writeReferencias(w, asDocument);
  writeCommissionLines(w, input, totals);
  return w;
}
