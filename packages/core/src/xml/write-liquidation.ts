/** The parts of a liquidación-factura (43) that a note (56/61) repeating it writes the same way. */
import { formatDecimal } from "../decimal/index.js";
import type { LiquidationDocumentInput } from "../document/liquidation-document.js";
import type { LiquidationTotals } from "../totals/liquidation-totals.js";
import type { DualWriter } from "./dual-writer.js";

/** `Totales` of a 43, or of a note repeating one: the commissions' sums inside it, then `MntTotal`; closes `Encabezado`. */
export function writeLiquidationTotals(w: DualWriter, totals: LiquidationTotals): void {
  w.raw("<Totales>").value("MntNeto", totals.montoNeto);
  if (totals.montoExento !== 0) w.value("MntExe", totals.montoExento);
  w.value("TasaIVA", totals.tasaIva).value("IVA", totals.montoIva);
  if (totals.comisiones.length > 0) {
    const c = totals.totalComisiones;
    w.raw("<Comisiones>").value("ValComNeto", c.montoNeto).value("ValComExe", c.montoExento).value("ValComIVA", c.montoIva);
    w.raw("</Comisiones>");
  }
  w.value("MntTotal", totals.montoTotal).raw("</Totales></Encabezado>");
}

/**
 * The settled documents as `Detalle` lines: a count of documents with the line's amount and no unit price (BRIEF-doctypes
 * §1, rule 1). `TpoDocLiq` exists only in a 43's own lines, not in a note's.
 */
export function writeSettledDocuments(w: DualWriter, documentos: LiquidationDocumentInput["documentos"], withTipoDocLiq: boolean): void {
  documentos.forEach((d, i) => {
    w.raw("<Detalle>").value("NroLinDet", i + 1);
    if (withTipoDocLiq) w.value("TpoDocLiq", d.tipoDocLiq);
    if (d.exento) w.value("IndExe", 1);
    w.text("NmbItem", d.nombre).optText("DscItem", d.descripcion);
    if (d.cantidad !== undefined) w.value("QtyItem", formatDecimal(d.cantidad));
    w.optText("UnmdItem", d.unidad).value("MontoItem", d.monto).raw("</Detalle>");
  });
}

/** The commissions as `Comisiones` lines, after the references. */
export function writeCommissionLines(w: DualWriter, input: Pick<LiquidationDocumentInput, "comisiones">, totals: LiquidationTotals): void {
  (input.comisiones ?? []).forEach((c, i) => {
    const t = totals.comisiones[i];
    w.raw("<Comisiones>").value("NroLinCom", i + 1).value("TipoMovim", c.tipo).text("Glosa", c.descripcion);
    if (c.tasa !== undefined) w.value("TasaComision", formatDecimal(c.tasa));
    w.value("ValComNeto", c.montoNeto).value("ValComExe", c.montoExento ?? 0);
    if (t) w.value("ValComIVA", t.montoIva);
    w.raw("</Comisiones>");
  });
}
