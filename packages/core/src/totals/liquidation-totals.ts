/**
 * Totals of a liquidación-factura (43, BRIEF-doctypes §1): a commission agent settles the sales it made for its
 * principal. Lines are the settled documents with their signed amounts; commissions carry their own IVA.
 * `MntTotal = neto + exento + IVA − ValComNeto − ValComExe − ValComIVA` (formato DTE, A124); every amount may be
 * negative and rounds half away from zero.
 */
import { percentOf } from "../decimal/index.js";
import { IVA_RATE } from "./index.js";

/** One settled document (`Detalle` of a 43). */
export interface SettledDocument {
  /** `TpoDocLiq`: the settled document's tipo (30, 33, 35, 39, 56…) or 99 for advances and others. */
  tipoDocLiq: number;
  nombre: string;
  cantidad?: number | string;
  /** `MontoItem`, whole pesos, may be negative. */
  monto: number;
  /** `IndExe` 1. */
  exento?: boolean;
}

/** One commission or other charge (`Comisiones` of a 43). */
export interface Commission {
  /** `TipoMovim`: C comisión, O otros cargos. */
  tipo: "C" | "O";
  descripcion: string;
  /** `TasaComision`, percent, printed only. */
  tasa?: number | string;
  /** `ValComNeto`, may be negative. */
  montoNeto: number;
  /** `ValComExe`, may be negative. */
  montoExento?: number;
}

export interface CommissionTotals {
  montoNeto: number;
  montoExento: number;
  /** `ValComIVA = round(ValComNeto × 19 %)`. */
  montoIva: number;
}

export interface LiquidationTotals {
  montoNeto: number;
  montoExento: number;
  tasaIva: number;
  montoIva: number;
  /** Per commission line, in order. */
  comisiones: CommissionTotals[];
  /** Header `Comisiones`: the sums. */
  totalComisiones: CommissionTotals;
  montoTotal: number;
}

/**
 * Computes every amount of a liquidación-factura.
 *
 * @example
 * computeLiquidationTotals({
 *   documentos: [{ tipoDocLiq: 33, nombre: "Ventas", monto: 234955 }, { tipoDocLiq: 33, nombre: "Exento", monto: 55068, exento: true }],
 *   comisiones: [{ tipo: "C", descripcion: "Comisión", montoNeto: 4834 }],
 * }) // { montoNeto: 234955, montoExento: 55068, montoIva: 44641, totalComisiones: { montoNeto: 4834, montoExento: 0, montoIva: 918 }, montoTotal: 328912, … }
 */
export function computeLiquidationTotals(content: { documentos: SettledDocument[]; comisiones?: Commission[] }): LiquidationTotals {
  let montoNeto = 0;
  let montoExento = 0;
  for (const d of content.documentos) {
    if (d.exento) montoExento += d.monto;
    else montoNeto += d.monto;
  }
  const montoIva = percentOf(montoNeto, IVA_RATE);
  const comisiones = (content.comisiones ?? []).map((c) => ({
    montoNeto: c.montoNeto,
    montoExento: c.montoExento ?? 0,
    montoIva: percentOf(c.montoNeto, IVA_RATE),
  }));
  const totalComisiones = comisiones.reduce(
    (sum, c) => ({ montoNeto: sum.montoNeto + c.montoNeto, montoExento: sum.montoExento + c.montoExento, montoIva: sum.montoIva + c.montoIva }),
    { montoNeto: 0, montoExento: 0, montoIva: 0 },
  );
  return {
    montoNeto,
    montoExento,
    tasaIva: IVA_RATE,
    montoIva,
    comisiones,
    totalComisiones,
    montoTotal:
      montoNeto + montoExento + montoIva - totalComisiones.montoNeto - totalComisiones.montoExento - totalComisiones.montoIva,
  };
}
