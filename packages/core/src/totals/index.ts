/**
 * Totals of a document (BRIEF §3, API.md §6.3), in integer pesos with decimal-safe, half-away-from-zero rounding.
 *
 * - line: `round(cantidad × precio)` minus `round(that × descuento% / 100)`;
 * - exempt lines (`exento`, every line of 34/41) sum into `montoExento`;
 * - taxable lines sum into the net total, or into a gross subtotal when prices include IVA (`preciosBrutos`);
 * - the global discount % applies once to the taxable bucket (to the exempt bucket on 34/41);
 * - net prices: `iva = round(neto × 19 / 100)` once on the total; gross: `neto = round(G / 1.19)`, `iva = G − neto`;
 * - additional taxes (`impuestoAdicional` on taxable lines of 33/56/61): `round(rate × sum of its lines / 100)` per code,
 *   added to the total (formato DTE, `MontoImp` a); validation refuses them with gross prices or a global discount,
 *   where that base would be ambiguous;
 * - a note that only corrects text (CodRef 2) carries zero amounts.
 */
import { lineAmount, netFromGross, percentOf } from "../decimal/index.js";
import { additionalTax } from "../document/additional-taxes.js";
import { isExemptTipo, type DocumentContent } from "../document/types.js";

/** The additional taxes a line may carry, also from this entry point for clients that bundle only the totals. */
export { ADDITIONAL_TAXES, ADDITIONAL_TAX_TIPOS, additionalTax, additionalTaxLabel, type AdditionalTax } from "../document/additional-taxes.js";

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
  /** `ImptoReten`: one per additional tax code on the lines, in order of first appearance. */
  impuestosAdicionales: AdditionalTaxTotal[];
  /** `MntTotal`. */
  montoTotal: number;
  /** Global discount in pesos and the bucket it applied to, or null. */
  descuentoGlobal: { porcentaje: string; monto: number; sobre: "afecto" | "exento" } | null;
  /** Whether taxable line amounts include IVA (`MntBruto` 1 / boletas without `IndMntNeto`). */
  preciosBrutos: boolean;
  lines: LineTotals[];
}

export interface AdditionalTaxTotal {
  codigo: number;
  /** Rate in percent (decimal string). */
  tasa: string;
  /** Sum of the amounts of the lines with this code. */
  base: number;
  monto: number;
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

  const impuestosAdicionales = additionalTaxTotals(content, lines);
  const adicionales = impuestosAdicionales.reduce((sum, t) => sum + t.monto, 0);

  return {
    montoNeto,
    montoExento: exempt,
    tasaIva: IVA_RATE,
    montoIva,
    impuestosAdicionales,
    montoTotal: montoNeto + montoIva + exempt + adicionales,
    descuentoGlobal,
    preciosBrutos: gross,
    lines,
  };
}

/** Per code: the sum of the taxable lines that carry it and the tax on that sum. Unknown codes are left to validation. */
function additionalTaxTotals(content: DocumentContent, lines: LineTotals[]): AdditionalTaxTotal[] {
  const byCode = new Map<number, AdditionalTaxTotal>();
  content.items.forEach((item, i) => {
    const line = lines[i];
    const tax = item.impuestoAdicional === undefined ? undefined : additionalTax(item.impuestoAdicional);
    if (!tax || !line || line.exento) return;
    const total = byCode.get(tax.codigo) ?? { codigo: tax.codigo, tasa: tax.tasa, base: 0, monto: 0 };
    total.base += line.montoItem;
    byCode.set(tax.codigo, total);
  });
  return [...byCode.values()].filter((t) => t.base > 0).map((t) => ({ ...t, monto: percentOf(t.base, t.tasa) }));
}

export { computePurchaseTotals, lineRetention, type PurchaseLine, type PurchaseTotals, type RetainedTax } from "./purchase-totals.js";
export {
  computeLiquidationTotals, type Commission, type CommissionTotals, type LiquidationTotals, type SettledDocument,
} from "./liquidation-totals.js";
export {
  computeExportTotals, type ExportAdjustment, type ExportLine, type ExportLineTotals, type ExportTotals,
} from "./export-totals.js";
