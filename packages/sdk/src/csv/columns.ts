/**
 * The columns of an emission spreadsheet. Each one is named by its path in the emission request (API.md §6.3), so the
 * sheet, the API and its errors speak the same names; `receptor.` and `item.` may be left out because the names below
 * them are unique (`rut`, `razon_social`, `nombre`, `precio`…). Headers are compared without case, accents or spaces.
 */

export type CellKind = "text" | "amount" | "tipo" | "date" | "yesno" | "forma_pago" | "ref_value" | "codigo_ref";

export interface SheetColumn {
  /** The column's full name, e.g. `receptor.rut`. */
  name: string;
  /** The name without its `receptor.` or `item.` prefix (`rut`), also accepted; none for the others. */
  short?: string;
  /** `document` columns describe the document and repeat (or stay empty) on its other rows; `item` columns are one line. */
  level: "document" | "item";
  kind: CellKind;
  help: string;
}

const SHORTENED = /^(receptor|item)\./;
const column = (name: string, level: SheetColumn["level"], kind: CellKind, help: string): SheetColumn =>
  SHORTENED.test(name) ? { name, short: name.replace(SHORTENED, ""), level, kind, help } : { name, level, kind, help };
const doc = (name: string, kind: CellKind, help: string) => column(name, "document", kind, help);
const item = (name: string, kind: CellKind, help: string) => column(name, "item", kind, help);

export const EMISSION_SHEET_COLUMNS: readonly SheetColumn[] = [
  doc("documento", "text", "optional: rows with the same value are one document (without it, a row with a tipo starts one and a row without adds a line)"),
  doc("tipo", "tipo", "33, 34, 39, 41, 52, 56 or 61"),
  doc("fecha", "date", "tax date, 2026-11-25 or 25-11-2026; default today"),
  doc("receptor.rut", "text", "76.192.083-9; empty on a boleta: the anonymous consumer 66666666-6"),
  doc("receptor.razon_social", "text", "customer's legal name"),
  doc("receptor.giro", "text", "required on facturas and notes"),
  doc("receptor.direccion", "text", "required on facturas and notes"),
  doc("receptor.comuna", "text", "required on facturas and notes"),
  doc("receptor.ciudad", "text", ""),
  doc("receptor.email", "text", ""),
  doc("receptor.contacto", "text", ""),
  item("item.nombre", "text", "line name, up to 80 characters"),
  item("item.cantidad", "amount", "2 or 2,5"),
  item("item.precio", "amount", "unit price, net unless precios_brutos; 12990 or 12.990"),
  item("item.unidad", "text", "up to 4 characters"),
  item("item.descuento_porcentaje", "amount", "0–100"),
  item("item.descripcion", "text", "longer description"),
  item("item.codigo", "text", "product code"),
  item("item.exento", "yesno", "sí/no: line exempt from IVA"),
  item("item.impuesto_adicional", "amount", "facturas and their notes: additional tax code, 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine / 26 beer 20.5 %"),
  doc("precios_brutos", "yesno", "sí/no: prices include IVA; empty: sí on boletas, no otherwise"),
  doc("forma_pago", "forma_pago", "1/contado, 2/crédito, 3/sin costo"),
  doc("descuento_global_porcentaje", "amount", "0–100"),
  doc("observaciones", "text", "printed on the PDF"),
  doc("referencia.tipo_doc", "ref_value", "notes: tipo of the referenced document (33, 39…, or 801 for a purchase order)"),
  doc("referencia.folio", "ref_value", "notes: folio of the referenced document"),
  doc("referencia.fecha", "date", "notes: date of the referenced document"),
  doc("referencia.razon", "text", "notes: reason, e.g. Devolución de mercadería"),
  doc("referencia.codigo", "codigo_ref", "notes: 1 anula, 2 corrige texto, 3 corrige montos; default from the amounts against a document issued with Timbre, required otherwise"),
  doc("traslado.tipo", "amount", "guías (52): 1 venta, 2 ventas por efectuar, 3 consignación, 4 entrega gratuita, 5 traslado interno, 6 otro traslado, 7 devolución, 8/9 exportación"),
  doc("traslado.despacho", "amount", "guías (52): 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones"),
  doc("transporte.patente", "text", "guías (52): vehicle plate"),
  doc("transporte.rut_transportista", "text", "guías (52): carrier's RUT"),
  doc("transporte.chofer.rut", "text", "guías (52): driver's RUT"),
  doc("transporte.chofer.nombre", "text", "guías (52): driver's name"),
  doc("transporte.direccion_destino", "text", "guías (52): destination address"),
  doc("transporte.comuna_destino", "text", "guías (52): destination comuna"),
  doc("transporte.ciudad_destino", "text", "guías (52): destination city"),
];

/** Headers that are read and ignored: the error column of a file of failed rows written by a previous run. */
export const IGNORED_HEADERS: ReadonlySet<string> = new Set(["error", "errores"]);

const BY_KEY = new Map<string, SheetColumn>();
for (const c of EMISSION_SHEET_COLUMNS) {
  BY_KEY.set(c.name, c);
  if (c.short) BY_KEY.set(c.short, c);
}

/** The column a header names, or undefined. `Razón Social`, `receptor.razon_social` and `RAZON_SOCIAL` are the same. */
export function columnFor(header: string, fold: (text: string) => string): SheetColumn | undefined {
  const key = fold(header).replace(/[\s-]+/g, "_").replace(/^items?(\[\d*\])?\./, "item.");
  return BY_KEY.get(key);
}
