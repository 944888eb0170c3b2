/**
 * The content of `Exportaciones` (110–112) before the TED, in file and canonical form, in DTE_v10's `xs:sequence`
 * order (BRIEF-doctypes §3). Every line and charge is exempt; amounts are in the document's currency; the pesos block
 * `OtraMoneda` (`PESO CL`) is always written, since the SII gives reparo HED-3-834 without it.
 */
import { formatDecimal } from "../decimal/index.js";
import { FOREIGN_BUYER_RUT, exportAdjustments, type ExportDocumentInput } from "../document/export-document.js";
import { normalizeRut } from "../rut/index.js";
import type { ExportTotals } from "../totals/export-totals.js";
import { DualWriter } from "./dual-writer.js";

/** `T110F1`: the element's `ID`. */
export const exportDocumentId = (input: Pick<ExportDocumentInput, "tipo" | "folio">): string => `T${input.tipo}F${input.folio}`;

/**
 * Writes `Encabezado`, `Detalle`×n, `DscRcgGlobal`×n and `Referencia`×n. Does not validate.
 *
 * @example
 * const { file, canonical } = renderExportacionesBody(input, computeExportDocumentTotals(input));
 */
export function renderExportacionesBody(input: ExportDocumentInput, totals: ExportTotals): DualWriter {
  const w = new DualWriter();
  w.raw("<Encabezado>");
  writeIdDoc(w, input);
  writeEmisor(w, input);
  writeReceptor(w, input);
  writeAduana(w, input);
  w.raw("<Totales>").text("TpoMoneda", input.moneda).value("MntExe", totals.montoExento).value("MntTotal", totals.montoTotal);
  w.raw("</Totales><OtraMoneda><TpoMoneda>PESO CL</TpoMoneda>").value("TpoCambio", totals.tipoCambio);
  w.value("MntExeOtrMnda", totals.montoExentoPesos).value("MntTotOtrMnda", totals.montoTotalPesos).raw("</OtraMoneda>");
  w.raw("</Encabezado>");
  input.items.forEach((item, i) => {
    const line = totals.lines[i];
    w.raw("<Detalle>").value("NroLinDet", i + 1);
    if (item.codigo) w.raw("<CdgItem><TpoCodigo>INT1</TpoCodigo>").text("VlrCodigo", item.codigo).raw("</CdgItem>");
    w.value("IndExe", 1).text("NmbItem", item.nombre).optText("DscItem", item.descripcion);
    w.value("QtyItem", formatDecimal(item.cantidad)).optText("UnmdItem", item.unidad);
    if (Number(item.precio) > 0) w.value("PrcItem", formatDecimal(item.precio));
    // Only percentages: DescuentoMonto/RecargoMonto are whole numbers in the schema even on exports.
    if (item.descuentoPorcentaje !== undefined) w.value("DescuentoPct", formatDecimal(item.descuentoPorcentaje));
    if (item.recargoPorcentaje !== undefined) w.value("RecargoPct", formatDecimal(item.recargoPorcentaje));
    w.value("MontoItem", line?.montoItem ?? "0").raw("</Detalle>");
  });
  exportAdjustments(input).forEach((a, i) => {
    const amount = totals.ajustes[i];
    w.raw("<DscRcgGlobal>").value("NroLinDR", i + 1).value("TpoMov", a.tipo).optText("GlosaDR", a.glosa);
    w.value("TpoValor", a.enPorcentaje ? "%" : "$").value("ValorDR", formatDecimal(a.valor));
    if (amount) w.value("ValorDROtrMnda", amount.montoPesos);
    w.value("IndExeDR", 1).raw("</DscRcgGlobal>");
  });
  (input.referencias ?? []).forEach((r, i) => {
    w.raw("<Referencia>").value("NroLinRef", i + 1).text("TpoDocRef", String(r.tipoDoc)).text("FolioRef", String(r.folio));
    w.text("FchRef", r.fecha);
    if (r.codigo !== undefined) w.value("CodRef", r.codigo);
    w.optText("RazonRef", r.razon).raw("</Referencia>");
  });
  return w;
}

function writeIdDoc(w: DualWriter, input: ExportDocumentInput): void {
  w.raw("<IdDoc>").value("TipoDTE", input.tipo).value("Folio", input.folio).text("FchEmis", input.fecha);
  if (input.indicadorServicio !== undefined) w.value("IndServicio", input.indicadorServicio);
  if (input.formaPagoExportacion !== undefined) w.value("FmaPagExp", input.formaPagoExportacion);
  w.optText("FchCancel", input.fechaCancelacion).raw("</IdDoc>");
}

function writeEmisor(w: DualWriter, input: ExportDocumentInput): void {
  const e = input.issuer;
  w.raw("<Emisor>").value("RUTEmisor", normalizeRut(e.rut)).text("RznSoc", e.razonSocial).text("GiroEmis", e.giro);
  w.optText("Telefono", e.telefono).optText("CorreoEmisor", e.email);
  for (const code of e.acteco) w.value("Acteco", code);
  if (e.sucursalSii !== undefined) w.value("CdgSIISucur", e.sucursalSii);
  w.optText("DirOrigen", e.direccion).optText("CmnaOrigen", e.comuna).optText("CiudadOrigen", e.ciudad).raw("</Emisor>");
}

function writeReceptor(w: DualWriter, input: ExportDocumentInput): void {
  const r = input.receiver;
  w.raw("<Receptor>").value("RUTRecep", FOREIGN_BUYER_RUT).text("RznSocRecep", r.razonSocial);
  if (r.numId || r.nacionalidad !== undefined) {
    w.raw("<Extranjero>").optText("NumId", r.numId);
    if (r.nacionalidad !== undefined) w.value("Nacionalidad", r.nacionalidad);
    w.raw("</Extranjero>");
  }
  w.optText("GiroRecep", r.giro).optText("CorreoRecep", r.email).optText("DirRecep", r.direccion).optText("CiudadRecep", r.ciudad);
  w.raw("</Receptor>");
}

function writeAduana(w: DualWriter, input: ExportDocumentInput): void {
  const a = input.exportacion;
  if (!a) return;
  const opt = (tag: string, v: number | string | undefined) => {
    if (v !== undefined) w.value(tag, typeof v === "number" && Number.isInteger(v) ? v : formatDecimal(v));
  };
  w.raw("<Transporte><Aduana>");
  opt("CodModVenta", a.modalidadVenta);
  opt("CodClauVenta", a.clausulaVenta);
  opt("TotClauVenta", a.totalClausula);
  opt("CodViaTransp", a.viaTransporte);
  w.optText("NombreTransp", a.nombreTransporte);
  opt("CodPtoEmbarque", a.puertoEmbarque);
  opt("CodPtoDesemb", a.puertoDesembarque);
  opt("Tara", a.tara);
  opt("CodUnidMedTara", a.unidadTara);
  opt("PesoBruto", a.pesoBruto);
  opt("CodUnidPesoBruto", a.unidadPesoBruto);
  opt("PesoNeto", a.pesoNeto);
  opt("CodUnidPesoNeto", a.unidadPesoNeto);
  opt("TotItems", a.totalItems);
  const bultos = a.bultos ?? [];
  if (bultos.length > 0) w.value("TotBultos", bultos.reduce((sum, b) => sum + b.cantidad, 0));
  for (const b of bultos) {
    w.raw("<TipoBultos>").value("CodTpoBultos", b.tipo).value("CantBultos", b.cantidad).text("Marcas", b.marcas);
    w.optText("IdContainer", b.idContainer).optText("Sello", b.sello).optText("EmisorSello", b.emisorSello).raw("</TipoBultos>");
  }
  opt("MntFlete", a.flete);
  opt("MntSeguro", a.seguro);
  opt("CodPaisRecep", a.paisReceptor);
  opt("CodPaisDestin", a.paisDestino);
  w.raw("</Aduana></Transporte>");
}
