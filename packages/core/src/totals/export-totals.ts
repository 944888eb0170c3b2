/**
 * Totals of export documents (110 factura de exportación, 111/112 its debit and credit notes; BRIEF-doctypes §3).
 * Everything is exempt and in the document's currency, exact to 4 decimals (prices to 6):
 * - line: `round4(cantidad × precio)`, then its discount or surcharge percent, each `round4`;
 * - global charges and discounts (freight, insurance…): an amount, or a percent of the lines' sum (`round4`);
 * - `MntExe = MntTotal = Σ lines + Σ charges − Σ discounts` (`MntTotal` 0 for samples without payment, FmaPagExp 21);
 * - the pesos block (`OtraMoneda`, `PESO CL`): `round(MntExe × tipoCambio)` and `round(MntTotal × tipoCambio)`, whole
 *   pesos half away from zero, as the SII recomputes them.
 * Amounts are decimal strings (`formatDecimal`), never binary floats.
 */
import {
  add, formatDecimal, multiply, roundHalfAwayFromZero, roundToScale, subtract, toDecimal, type Decimal,
} from "../decimal/index.js";

const AMOUNT_SCALE = 4;
const ZERO: Decimal = { units: 0n, scale: 0 };

export interface ExportLine {
  nombre: string;
  cantidad: number | string;
  /** Unit price in the document's currency, up to 6 decimals. */
  precio: number | string;
  descuentoPorcentaje?: number | string;
  recargoPorcentaje?: number | string;
}

/** A global charge (`TpoMov` R) or discount (D): freight, insurance, commissions abroad… */
export interface ExportAdjustment {
  tipo: "R" | "D";
  glosa?: string;
  /** An amount in the document's currency (`TpoValor` $), or a percent of the lines' sum (%). */
  valor: number | string;
  enPorcentaje?: boolean;
}

export interface ExportLineTotals {
  /** `round4(cantidad × precio)`. */
  montoBruto: string;
  descuentoMonto: string;
  recargoMonto: string;
  /** `MontoItem`. */
  montoItem: string;
}

export interface ExportTotals {
  lines: ExportLineTotals[];
  /** Per adjustment: its amount in the currency (`ValorDR` for `$`, the computed amount for `%`) and in pesos. */
  ajustes: { monto: string; montoPesos: string }[];
  montoExento: string;
  montoTotal: string;
  tipoCambio: string;
  montoExentoPesos: number;
  montoTotalPesos: number;
}

/**
 * Computes every amount of an export document.
 *
 * @example
 * computeExportTotals({
 *   items: [{ nombre: "Chatarra", cantidad: 687, precio: 159 }],
 *   ajustes: [{ tipo: "R", glosa: "FLETE", valor: "2069.28" }, { tipo: "R", glosa: "SEGURO", valor: "1215.22" }],
 *   tipoCambio: 1075,
 * }) // { montoExento: "112517.5", montoTotal: "112517.5", montoTotalPesos: 120956313, … }
 */
export function computeExportTotals(content: {
  items: ExportLine[];
  ajustes?: ExportAdjustment[];
  tipoCambio: number | string;
  /** FmaPagExp 21 (sin pago): the total is 0 (formato DTE, A124). */
  sinPago?: boolean;
}): ExportTotals {
  const lines = content.items.map(exportLine);
  const lineSum = lines.reduce((sum, l) => add(sum, toDecimal(l.montoItem)), ZERO);
  const rate = toDecimal(content.tipoCambio);

  let exempt = lineSum;
  const ajustes = (content.ajustes ?? []).map((a) => {
    const amount = a.enPorcentaje ? percent(lineSum, a.valor) : toDecimal(a.valor);
    exempt = a.tipo === "R" ? add(exempt, amount) : subtract(exempt, amount);
    return { monto: formatDecimal(amount), montoPesos: formatDecimal(roundToScale(multiply(amount, rate), AMOUNT_SCALE)) };
  });

  const total = content.sinPago ? ZERO : exempt;
  return {
    lines,
    ajustes,
    montoExento: formatDecimal(exempt),
    montoTotal: formatDecimal(total),
    tipoCambio: formatDecimal(rate),
    montoExentoPesos: roundHalfAwayFromZero(multiply(exempt, rate)),
    montoTotalPesos: roundHalfAwayFromZero(multiply(total, rate)),
  };
}

function exportLine(item: ExportLine): ExportLineTotals {
  const gross = roundToScale(multiply(toDecimal(item.cantidad), toDecimal(item.precio)), AMOUNT_SCALE);
  const discount = item.descuentoPorcentaje === undefined ? ZERO : percent(gross, item.descuentoPorcentaje);
  const surcharge = item.recargoPorcentaje === undefined ? ZERO : percent(gross, item.recargoPorcentaje);
  return {
    montoBruto: formatDecimal(gross),
    descuentoMonto: formatDecimal(discount),
    recargoMonto: formatDecimal(surcharge),
    montoItem: formatDecimal(add(subtract(gross, discount), surcharge)),
  };
}

/** `round4(base × pct / 100)`. */
function percent(base: Decimal, pct: number | string): Decimal {
  const p = toDecimal(pct);
  return roundToScale(multiply(base, { units: p.units, scale: p.scale + 2 }), AMOUNT_SCALE);
}
