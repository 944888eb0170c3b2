/**
 * Decimal-safe arithmetic for money. A JSON number such as `0.1` is read through its shortest decimal text
 * ("0.1"), never through its binary value, and every product is exact (BigInt), so `1.15 × 100` is 115, not
 * 114.99999999999999. The only rounding rule is half away from zero to whole pesos (SII, PHP `round`).
 */
import { TimbreError } from "../errors/index.js";

/** An exact decimal: `units × 10^-scale`. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_TEXT = /^([+-])?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Reads a number or decimal text exactly.
 *
 * @example
 * toDecimal(0.1)      // { units: 1n, scale: 1 }
 * toDecimal("12.500") // { units: 12500n, scale: 3 }
 */
export function toDecimal(value: number | string | Decimal): Decimal {
  if (typeof value === "object") return value;
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new TimbreError("VALIDATION_ERROR", `not a finite number: ${value}`);
  }
  const text = typeof value === "number" ? String(value) : value.trim();
  const m = DECIMAL_TEXT.exec(text);
  if (!m) throw new TimbreError("VALIDATION_ERROR", `not a decimal number: ${JSON.stringify(value)}`);
  const [, sign, int = "0", frac = "", exp] = m;
  let digits = int + frac;
  let scale = frac.length - (exp ? Number(exp) : 0);
  if (scale < 0) {
    digits += "0".repeat(-scale);
    scale = 0;
  }
  const units = BigInt(digits) * (sign === "-" ? -1n : 1n);
  return { units, scale };
}

/** Number of decimal places a value has when written in its shortest form. */
export function decimalPlaces(value: number | string): number {
  const d = normalize(toDecimal(value));
  return d.scale;
}

function normalize(d: Decimal): Decimal {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

/**
 * Exact product.
 *
 * @example
 * multiply(toDecimal(2.5), toDecimal(280000)) // 700000 exactly
 */
export function multiply(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/**
 * Divides `units × 10^-scale` by an integer divisor and rounds half away from zero to an integer.
 */
function divideRound(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new TimbreError("VALIDATION_ERROR", "division by zero");
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = n / d;
  const r = n % d;
  const rounded = r * 2n >= d ? q + 1n : q;
  return negative ? -rounded : rounded;
}

/**
 * Rounds to whole pesos, half away from zero.
 *
 * @example
 * roundHalfAwayFromZero(toDecimal("2.5"))  // 3
 * roundHalfAwayFromZero(toDecimal("-2.5")) // -3
 */
export function roundHalfAwayFromZero(d: Decimal): number {
  return Number(divideRound(d.units, 10n ** BigInt(d.scale)));
}

/**
 * `round(amount × percent / 100)`, exact, half away from zero.
 *
 * @example
 * percentOf(104090, 10) // 10409
 * percentOf(93681, 19)  // 17799
 */
export function percentOf(amount: number, percent: number | string | Decimal): number {
  const p = toDecimal(percent);
  return Number(divideRound(BigInt(amount) * p.units, 100n * 10n ** BigInt(p.scale)));
}

/**
 * `round(amount × 100 / (100 + percent))`: the net part of a gross amount.
 *
 * @example
 * netFromGross(1190, 19) // 1000
 * netFromGross(5000, 19) // 4202
 */
export function netFromGross(gross: number, percent: number): number {
  return Number(divideRound(BigInt(gross) * 100n, BigInt(100 + percent)));
}

/**
 * `round(quantity × price)` in whole pesos, exact.
 *
 * @example
 * lineAmount(2.5, 280000) // 700000
 * lineAmount(3, 0.1)      // 0 (0.3 rounds down)
 */
export function lineAmount(quantity: number | string, price: number | string): number {
  return roundHalfAwayFromZero(multiply(toDecimal(quantity), toDecimal(price)));
}

/**
 * Writes a number the way the SII XML wants it: `.` as separator, no exponent, no trailing zeros.
 *
 * @example
 * formatDecimal(2.5)   // "2.5"
 * formatDecimal(1e-6)  // "0.000001"
 */
export function formatDecimal(value: number | string | Decimal): string {
  const d = normalize(toDecimal(value));
  const negative = d.units < 0n;
  const digits = (negative ? -d.units : d.units).toString().padStart(d.scale + 1, "0");
  const int = digits.slice(0, digits.length - d.scale);
  const frac = d.scale > 0 ? "." + digits.slice(digits.length - d.scale) : "";
  return (negative ? "-" : "") + int + frac;
}

/**
 * Rounds to `scale` decimals, half away from zero (export amounts: 4 decimals).
 *
 * @example
 * roundToScale(toDecimal("103.40004"), 4) // { units: 1034000n, scale: 4 } ("103.4")
 */
export function roundToScale(d: Decimal, scale: number): Decimal {
  if (d.scale <= scale) return d;
  return { units: divideRound(d.units, 10n ** BigInt(d.scale - scale)), scale };
}

/**
 * Exact sum.
 *
 * @example
 * formatDecimal(add(toDecimal("2069.28"), toDecimal("1215.22"))) // "3284.5"
 */
export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale), scale };
}

/** `a − b`, exact. */
export function subtract(a: Decimal, b: Decimal): Decimal {
  return add(a, { units: -b.units, scale: b.scale });
}
