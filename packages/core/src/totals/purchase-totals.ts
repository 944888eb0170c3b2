/**
 * Totals of a factura de compra (46, BRIEF-doctypes §2): the buyer issues it and retains the seller's IVA, wholly or
 * in part. Lines, net, exempt and IVA are those of a 33; then per retention code
 * `retained = round(Σ line amounts with that code × rate / 100)`, `IVANoRet = IVA − Σ retained` and
 * `MntTotal = neto + exento + IVA − Σ retained` (formato DTE, A118 and A124).
 */
import { percentOf } from "../decimal/index.js";
import type { Line } from "../document/types.js";
import { retention } from "../tables/retentions.js";
import { computeTotals, type LineTotals } from "./index.js";

/** A line of a 46: a 33's line with the code of the IVA retained on it. */
export interface PurchaseLine extends Line {
  /**
   * Retention code (`CodImpAdic`, one of `RETENTIONS`). Unset means 15, IVA retenido total (API.md §13's default);
   * `null` means the line retains nothing (a purchase from someone who issues no invoice, without retention).
   */
  retencion?: number | null;
}

export interface RetainedTax {
  /** `TipoImp`. */
  codigo: number;
  /** `TasaImp`, percent as a decimal string. */
  tasa: string;
  /** Sum of the amounts of the lines with this code. */
  base: number;
  /** `MontoImp`. */
  monto: number;
}

export interface PurchaseTotals {
  montoNeto: number;
  montoExento: number;
  tasaIva: number;
  montoIva: number;
  /** `ImptoReten`, one per retention code in order of first appearance. */
  retenciones: RetainedTax[];
  /** Σ retained amounts (`monto_iva_retenido` in the API). */
  montoIvaRetenido: number;
  /** `IVANoRet`: the IVA not retained, written only when it is not zero. */
  montoIvaNoRetenido: number;
  montoTotal: number;
  lines: LineTotals[];
}

/** The retention code a line carries, with the API's default. */
export function lineRetention(line: PurchaseLine): number | null {
  return line.retencion === undefined ? 15 : line.retencion;
}

/**
 * Computes every amount of a factura de compra.
 *
 * @example
 * computePurchaseTotals({ items: [{ nombre: "Trigo", cantidad: 2, precio: 5000, retencion: 34 }] })
 * // { montoNeto: 10000, montoIva: 1900, retenciones: [{ codigo: 34, tasa: "4", base: 10000, monto: 400 }],
 * //   montoIvaNoRetenido: 1500, montoTotal: 11500, … }
 */
export function computePurchaseTotals(content: {
  items: PurchaseLine[];
  descuentoGlobalPorcentaje?: number | string;
}): PurchaseTotals {
  const base = computeTotals({ tipo: 33, items: content.items, descuentoGlobalPorcentaje: content.descuentoGlobalPorcentaje });
  const byCode = new Map<number, RetainedTax>();
  content.items.forEach((item, i) => {
    const code = lineRetention(item);
    const line = base.lines[i];
    const r = code === null ? undefined : retention(code);
    if (!r || !line || line.exento) return;
    const total = byCode.get(r.codigo) ?? { codigo: r.codigo, tasa: r.tasa, base: 0, monto: 0 };
    total.base += line.montoItem;
    byCode.set(r.codigo, total);
  });
  const retenciones = [...byCode.values()].map((t) => ({ ...t, monto: percentOf(t.base, t.tasa) }));
  const montoIvaRetenido = retenciones.reduce((sum, t) => sum + t.monto, 0);
  return {
    montoNeto: base.montoNeto,
    montoExento: base.montoExento,
    tasaIva: base.tasaIva,
    montoIva: base.montoIva,
    retenciones,
    montoIvaRetenido,
    montoIvaNoRetenido: base.montoIva - montoIvaRetenido,
    montoTotal: base.montoNeto + base.montoExento + base.montoIva - montoIvaRetenido,
    lines: base.lines,
  };
}
