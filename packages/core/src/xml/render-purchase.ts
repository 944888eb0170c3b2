/**
 * The content of a factura de compra's `Documento` (46) before the TED: a 33's, plus its retentions — `Retenedor`
 * (`IndAgente` R) and `CodImpAdic` on each retained line, `ImptoReten` per code and `IVANoRet` in `Totales`
 * (BRIEF-doctypes §2; the SII's examples mark each retained line, and HED-2-300/302 follow when they are missing).
 */
import { formatDecimal } from "../decimal/index.js";
import type { PurchaseDocumentInput } from "../document/purchase-document.js";
import type { DocumentInput } from "../document/types.js";
import { lineRetention, type PurchaseTotals } from "../totals/purchase-totals.js";
import { DualWriter } from "./dual-writer.js";
import { writeEmisor, writeReceptor } from "./write-header.js";
import { writeReferencias } from "./write-lines.js";

/**
 * Writes `Encabezado`, `Detalle`×n, `DscRcgGlobal` and `Referencia`×n. Does not validate.
 *
 * @example
 * const { file } = renderPurchaseBody(input, computePurchaseTotals(input));
 */
export function renderPurchaseBody(input: PurchaseDocumentInput, totals: PurchaseTotals): DualWriter {
  // The header and reference writers read only the parties, the references and whether the tipo is a boleta.
  const asDocument = input as unknown as DocumentInput;
  const w = new DualWriter();
  w.raw("<Encabezado><IdDoc>").value("TipoDTE", input.tipo).value("Folio", input.folio).text("FchEmis", input.fecha);
  w.value("FmaPago", input.formaPago ?? 2).raw("</IdDoc>");
  writeEmisor(w, asDocument);
  writeReceptor(w, asDocument);
  w.raw("<Totales>").value("MntNeto", totals.montoNeto);
  if (totals.montoExento > 0) w.value("MntExe", totals.montoExento);
  w.value("TasaIVA", totals.tasaIva).value("IVA", totals.montoIva);
  for (const r of totals.retenciones) {
    w.raw("<ImptoReten>").value("TipoImp", r.codigo).value("TasaImp", formatDecimal(r.tasa)).value("MontoImp", r.monto).raw("</ImptoReten>");
  }
  if (totals.montoIvaNoRetenido !== 0) w.value("IVANoRet", totals.montoIvaNoRetenido);
  w.value("MntTotal", totals.montoTotal).raw("</Totales></Encabezado>");

  input.items.forEach((item, i) => {
    const line = totals.lines[i];
    const exempt = line?.exento === true;
    const code = exempt ? null : lineRetention(item);
    w.raw("<Detalle>").value("NroLinDet", i + 1);
    if (item.codigo) w.raw("<CdgItem><TpoCodigo>INT1</TpoCodigo>").text("VlrCodigo", item.codigo).raw("</CdgItem>");
    if (exempt) w.value("IndExe", 1);
    if (code !== null) w.raw("<Retenedor><IndAgente>R</IndAgente></Retenedor>");
    w.text("NmbItem", item.nombre).optText("DscItem", item.descripcion);
    w.value("QtyItem", formatDecimal(item.cantidad)).optText("UnmdItem", item.unidad);
    if (Number(item.precio) > 0) w.value("PrcItem", formatDecimal(item.precio));
    if (line !== undefined && line.descuentoMonto > 0) {
      if (item.descuentoPorcentaje !== undefined) w.value("DescuentoPct", formatDecimal(item.descuentoPorcentaje));
      w.value("DescuentoMonto", line.descuentoMonto);
    }
    if (code !== null) w.value("CodImpAdic", code);
    w.value("MontoItem", line?.montoItem ?? 0).raw("</Detalle>");
  });
  writeReferencias(w, asDocument);
  return w;
}
