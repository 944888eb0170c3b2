/**
 * Totals of a document (BRIEF §3, API.md §6.3), in integer pesos with decimal-safe, half-away-from-zero rounding.
 *
 * - line: `round(cantidad × precio)` minus `round(that × descuento% / 100)`;
 * - exempt lines (`exento`, every line of 34/41) sum into `montoExento`;
 * - taxable lines sum into the net total, or into a gross subtotal when prices include IVA (`preciosBrutos`);
 * - the global discount % applies once to the taxable bucket (to the exempt bucket on 34/41);
 * - net prices: `iva = round(neto × 19 / 100)` once on the total; gross: `neto = round(G / 1.19)`, `iva = G − neto`;
 * - a note that only corrects text (CodRef 2) carries zero amounts.
 */
import { lineAmount, netFromGross, percentOf } from "../decimal/index.js";
import { isExemptTipo, type DocumentContent } from "../document/types.js";

/** IVA rate in percent. */
export const IVA_RATE = 19;

export interface LineTotals {
  /** `round(cantidad × precio)` before the line discount. */
  montoBruto: number;
  /** The line discount in pesos (0 when none). */
  descuentoMonto: number;
  /** The line amount after discount (`MontoItem`). Gross when the document uses gross prices. */
  montoItem: number;
  exento: boolean;
}

export interface Totals {
  /** `MntNeto`: taxable amount without IVA (0 on exempt-only documents). */
  montoNeto: number;
  /** `MntExe`. */
  montoExento: number;
  /** `TasaIVA` in percent. */
  tasaIva: number;
  /** `IVA`. */
  montoIva: number;
  /** `MntTotal`. */
  montoTotal: number;
  /** Global discount in pesos and the bucket it applied to, or null. */
  descuentoGlobal: { porcentaje: string; monto: number; sobre: "afecto" | "exento" } | null;
  /** Whether taxable line amounts include IVA (`MntBruto` 1 / boletas without `IndMntNeto`). */
  preciosBrutos: boolean;
  lines: LineTotals[];
}

/** `true` when the document is a credit note that only corrects text (CodRef 2: all amounts zero). */
export function correctsTextOnly(content: Pick<DocumentContent, "tipo" | "referencias">): boolean {
  return content.tipo === 61 && (content.referencias ?? []).some((r) => r.codigo === 2);
}

/**
 * Computes every amount of a document.
 *
 * @example
 * computeTotals({ tipo: 33, items: [{ nombre: "Servicio", cantidad: 1, precio: 104090, descuentoPorcentaje: 10 }] })
 * // { montoNeto: 93681, montoIva: 17799, montoTotal: 111480, montoExento: 0, … }
 */
export function computeTotals(content: DocumentContent): Totals {
  const exemptOnly = isExemptTipo(content.tipo);
  const gross = !exemptOnly && content.preciosBrutos === true;
  const zero = correctsTextOnly(content);

  const lines: LineTotals[] = content.items.map((item) => {
    const exento = exemptOnly || item.exento === true;
    if (zero) return { montoBruto: 0, descuentoMonto: 0, montoItem: 0, exento };
    const montoBruto = lineAmount(item.cantidad, item.precio);
    const pct = item.descuentoPorcentaje ?? 0;
    const descuentoMonto = Number(pct) === 0 ? 0 : percentOf(montoBruto, pct);
    return { montoBruto, descuentoMonto, montoItem: montoBruto - descuentoMonto, exento };
  });

  let taxable = 0;
  let exempt = 0;
  for (const l of lines) {
    if (l.exento) exempt += l.montoItem;
    else taxable += l.montoItem;
  }

  let descuentoGlobal: Totals["descuentoGlobal"] = null;
  const globalPct = content.descuentoGlobalPorcentaje ?? 0;
  if (!zero && Number(globalPct) > 0) {
    // On the exempt amount for 34/41, and for a note whose lines are all exempt (one correcting a 34, say).
    const sobre = exemptOnly || (taxable === 0 && exempt > 0) ? "exento" : "afecto";
    const base = sobre === "exento" ? exempt : taxable;
    const monto = percentOf(base, globalPct);
    if (sobre === "exento") exempt -= monto;
    else taxable -= monto;
    descuentoGlobal = { porcentaje: String(globalPct), monto, sobre };
  }

  let montoNeto: number;
  let montoIva: number;
  if (exemptOnly) {
    montoNeto = 0;
    montoIva = 0;
  } else if (gross) {
    montoNeto = netFromGross(taxable, IVA_RATE);
    montoIva = taxable - montoNeto;
  } else {
    montoNeto = taxable;
    montoIva = percentOf(taxable, IVA_RATE);
  }

  return {
    montoNeto,
    montoExento: exempt,
    tasaIva: IVA_RATE,
    montoIva,
    montoTotal: montoNeto + montoIva + exempt,
    descuentoGlobal,
    preciosBrutos: gross,
    lines,
  };
}
