/**
 * Numbers as people in Chile type them, and the totals of a draft computed in the browser with the very function the
 * server uses (`@timbre/core/totals`), so the form shows each line's amount and the total while it is typed without a
 * request; the server still computes and validates everything at preview and emission.
 */
import type { EmitParams } from "@timbre/sdk";
import type { Tipo } from "@timbre/core";
import { computeTotals, type Totals } from "@timbre/core/totals";

/** Numbers as typed in Chile (`2,5`, `12.990`): the same reader as the spreadsheet import. */
export { parseAmount } from "@timbre/sdk/csv";

/** The totals of a draft, or null while it has no line that can be computed. */
export function draftTotals(draft: EmitParams): Totals | null {
  if (draft.items.length === 0) return null;
  try {
    return computeTotals({
      tipo: draft.tipo as Tipo,
      items: draft.items.map((i) => ({ nombre: i.nombre, cantidad: i.cantidad, precio: i.precio, descuentoPorcentaje: i.descuento_porcentaje, exento: i.exento, impuestoAdicional: i.impuesto_adicional })),
      preciosBrutos: draft.precios_brutos,
      descuentoGlobalPorcentaje: draft.descuento_global_porcentaje,
      referencias: (draft.referencias ?? (draft.referencia ? [draft.referencia] : [])).map((r) => ({ tipoDoc: r.tipo_doc, folio: r.folio, fecha: r.fecha, razon: r.razon, codigo: r.codigo })),
    });
  } catch {
    return null; // a line still being typed (no quantity yet, say)
  }
}
