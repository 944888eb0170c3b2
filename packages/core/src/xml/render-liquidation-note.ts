/**
 * The content of the `Documento` of a debit/credit note (56/61) on a liquidación-factura (43) before the TED. The
 * note repeats what it annuls or corrects: the settled documents as `Detalle` lines (no `TpoDocLiq`, which exists
 * only in `Liquidacion`), the commissions in `Totales/Comisiones` and as `Comisiones` lines after `Referencia`, so
 * its `MntTotal` is the 43's `neto + exento + IVA − ValComNeto − ValComExe − ValComIVA` (formato DTE A121–A124,
 * zone F; DTE_v10 `Documento` has both elements, typed `MontoType`).
 */
import { formatDecimal } from "../decimal/index.js";
import type { LiquidationDocumentInput } from "../document/liquidation-document.js";
import type { DocumentInput } from "../document/types.js";
import type { LiquidationTotals } from "../totals/liquidation-totals.js";
import { DualWriter } from "./dual-writer.js";
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
  w.raw("<Totales>").value("MntNeto", totals.montoNeto);
  if (totals.montoExento !== 0) w.value("MntExe", totals.montoExento);
  w.value("TasaIVA", totals.tasaIva).value("IVA", totals.montoIva);
  if (totals.comisiones.length > 0) {
    const c = totals.totalComisiones;
    w.raw("<Comisiones>").value("ValComNeto", c.montoNeto).value("ValComExe", c.montoExento).value("ValComIVA", c.montoIva);
    w.raw("</Comisiones>");
  }
  w.value("MntTotal", totals.montoTotal).raw("</Totales></Encabezado>");

  input.documentos.forEach((d, i) => {
    w.raw("<Detalle>").value("NroLinDet", i + 1);
    if (d.exento) w.value("IndExe", 1);
    w.text("NmbItem", d.nombre).optText("DscItem", d.descripcion);
    // A count of documents with the line's amount and no unit price, as the 43 itself (BRIEF-doctypes §1, rule 1).
    if (d.cantidad !== undefined) w.value("QtyItem", formatDecimal(d.cantidad));
    w.optText("UnmdItem", d.unidad).value("MontoItem", d.monto).raw("</Detalle>");
  });
  writeReferencias(w, asDocument);
  (input.comisiones ?? []).forEach((c, i) => {
    const t = totals.comisiones[i];
    w.raw("<Comisiones>").value("NroLinCom", i + 1).value("TipoMovim", c.tipo).text("Glosa", c.descripcion);
    if (c.tasa !== undefined) w.value("TasaComision", formatDecimal(c.tasa));
    w.value("ValComNeto", c.montoNeto).value("ValComExe", c.montoExento ?? 0);
    if (t) w.value("ValComIVA", t.montoIva);
    w.raw("</Comisiones>");
  });
  return w;
}
