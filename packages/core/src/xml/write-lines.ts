/** `Detalle`, `DscRcgGlobal` and `Referencia` in `xs:sequence` order (BRIEF §2, §2.1). */
import { formatDecimal } from "../decimal/index.js";
import { isExemptTipo, isReceipt, type DocumentInput } from "../document/types.js";
import { correctsTextOnly, type Totals } from "../totals/index.js";
import type { DualWriter } from "./dual-writer.js";

/** `TpoCodigo` for the issuer's own item codes. */
const INTERNAL_CODE = "INT1";

const isPositive = (value: number | string | undefined): value is number | string =>
  value !== undefined && value !== "" && Number(value) > 0;

/**
 * One `Detalle` per line: `IndExe` 1 for exempt lines (all lines of 34/41), no `PrcItem` when the price is 0.
 *
 * @example
 * writeDetalle(w, input, totals); // <Detalle><NroLinDet>1</NroLinDet><NmbItem>…</NmbItem>…<MontoItem>…</MontoItem></Detalle>
 */
export function writeDetalle(w: DualWriter, input: DocumentInput, totals: Totals): void {
  const textOnly = correctsTextOnly(input);
  input.items.forEach((item, i) => {
    const line = totals.lines[i];
    w.raw("<Detalle>").value("NroLinDet", i + 1);
    if (item.codigo !== undefined && item.codigo !== "") {
      w.raw(`<CdgItem><TpoCodigo>${INTERNAL_CODE}</TpoCodigo>`).text("VlrCodigo", item.codigo).raw("</CdgItem>");
    }
    if (line?.exento === true) w.value("IndExe", 1);
    w.text("NmbItem", item.nombre).optText("DscItem", item.descripcion);
    if (!textOnly) {
      // A "corrige texto" note carries no price (MontoItem 0 must equal price × quantity).
      w.value("QtyItem", formatDecimal(item.cantidad)).optText("UnmdItem", item.unidad);
      if (isPositive(item.precio)) w.value("PrcItem", formatDecimal(item.precio));
      // "Si va el descuento en %, debe ir el monto correspondiente" (formato DTE, Detalle): a percentage whose amount
      // rounds to 0 pesos is left out with it (DescuentoMonto cannot be 0).
      if (line !== undefined && line.descuentoMonto > 0) {
        if (isPositive(item.descuentoPorcentaje)) w.value("DescuentoPct", formatDecimal(item.descuentoPorcentaje));
        w.value("DescuentoMonto", line.descuentoMonto);
      }
      if (item.impuestoAdicional !== undefined && line?.exento !== true) w.value("CodImpAdic", item.impuestoAdicional);
    } else w.optText("UnmdItem", item.unidad);
    w.value("MontoItem", line?.montoItem ?? 0).raw("</Detalle>");
  });
}

/**
 * The global discount line (`%`), with `IndExeDR` 1 when it applies to the exempt amount (34/41).
 *
 * @example
 * writeDscRcgGlobal(w, input, totals); // <DscRcgGlobal><NroLinDR>1</NroLinDR><TpoMov>D</TpoMov>…</DscRcgGlobal>
 */
export function writeDscRcgGlobal(w: DualWriter, input: DocumentInput, totals: Totals): void {
  const d = totals.descuentoGlobal;
  if (d === null) return;
  w.raw("<DscRcgGlobal><NroLinDR>1</NroLinDR><TpoMov>D</TpoMov><GlosaDR>Descuento global</GlosaDR><TpoValor>%</TpoValor>");
  w.value("ValorDR", formatDecimal(d.porcentaje));
  // 34/41 have no taxable base: the discount must say it applies to the exempt amount (BRIEF §3 rule 7).
  if (d.sobre === "exento" || isExemptTipo(input.tipo)) w.value("IndExeDR", 1);
  w.raw("</DscRcgGlobal>");
}

/**
 * `Referencia` lines; boletas carry no `FchRef`.
 *
 * @example
 * writeReferencias(w, input); // <Referencia><NroLinRef>1</NroLinRef><TpoDocRef>33</TpoDocRef>…</Referencia>
 */
export function writeReferencias(w: DualWriter, input: DocumentInput): void {
  const receipt = isReceipt(input.tipo);
  (input.referencias ?? []).forEach((r, i) => {
    w.raw("<Referencia>").value("NroLinRef", i + 1).text("TpoDocRef", String(r.tipoDoc)).text("FolioRef", String(r.folio));
    if (!receipt) w.text("FchRef", r.fecha);
    if (r.codigo !== undefined) w.value("CodRef", r.codigo);
    w.optText("RazonRef", r.razon).raw("</Referencia>");
  });
}
