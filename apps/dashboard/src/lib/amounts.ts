/**
 * Numbers as people in Chile type them, and the totals of a draft computed in the browser with the very function the
 * server uses (`@timbre/core/totals`), so the form shows each line's amount and the total while it is typed without a
 * request; the server still computes and validates everything at preview and emission.
 */
import type { EmitParams } from "@timbre/sdk";
import type { Tipo } from "@timbre/core";
import { computeTotals, type Totals } from "@timbre/core/totals";

/**
 * A quantity, price or percentage typed in a form: `2,5` and `2.5` are two and a half; `4.990` and `1.234.567` are
 * thousands separated by dots (how prices are written in Chile); `1.234,5` mixes both. Null when it is not a number.
 * The ambiguous `1.490` therefore reads as 1 490 — the form prints every line's amount, so a misreading shows.
 */
export function parseAmount(text: string): number | null {
  let t = text.trim().replace(/\s|\$/g, "");
  if (t === "") return null;
  if (t.includes(",")) t = t.replace(/\./g, "").replace(",", ".");
  else if (/^-?\d{1,3}(\.\d{3})+$/.test(t)) t = t.replace(/\./g, "");
  if (!/^-?\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** The totals of a draft, or null while it has no line that can be computed. */
export function draftTotals(draft: EmitParams): Totals | null {
  if (draft.items.length === 0) return null;
  try {
    return computeTotals({
      tipo: draft.tipo as Tipo,
      items: draft.items.map((i) => ({ nombre: i.nombre, cantidad: i.cantidad, precio: i.precio, descuentoPorcentaje: i.descuento_porcentaje, exento: i.exento })),
      preciosBrutos: draft.precios_brutos,
      descuentoGlobalPorcentaje: draft.descuento_global_porcentaje,
      referencias: (draft.referencias ?? (draft.referencia ? [draft.referencia] : [])).map((r) => ({ tipoDoc: r.tipo_doc, folio: r.folio, fecha: r.fecha, razon: r.razon, codigo: r.codigo })),
    });
  } catch {
    return null; // a line still being typed (no quantity yet, say)
  }
}
