/**
 * Chilean RUT: clean, parse, format and check digit (módulo 11). The canonical form is the XML one:
 * digits, `-`, check digit, no dots, upper-case `K` (`76192083-9`).
 */
import { TimbreError } from "../errors/index.js";

/** A parsed RUT. */
export interface Rut {
  /** The number without check digit, no leading zeros (`76192083`). */
  body: string;
  /** The check digit, `0`–`9` or `K`. */
  dv: string;
}

/** The SII itself, receiver of every envelope sent to it. */
export const SII_RUT = "60803000-K";
/** Unidentified final consumer on receipts. */
export const ANONYMOUS_CONSUMER_RUT = "66666666-6";

/**
 * Removes dots, spaces and hyphens and upper-cases `k`. Does not validate.
 *
 * @example
 * cleanRut(" 76.192.083-k ") // "76192083K"
 */
export function cleanRut(input: string): string {
  return input.replace(/[.\s\-‐‑–]/g, "").toUpperCase();
}

/**
 * The check digit of a RUT body.
 *
 * @example
 * computeDv("76192083") // "9"
 * computeDv("60803000") // "K"
 */
export function computeDv(body: string | number): string {
  const digits = String(body);
  if (!/^\d+$/.test(digits)) throw new TimbreError("INVALID_RUT", `RUT body must be digits: ${digits}`);
  let sum = 0;
  let factor = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const r = 11 - (sum % 11);
  return r === 11 ? "0" : r === 10 ? "K" : String(r);
}

/**
 * Parses a RUT in any common writing, or returns `null` when it is not a valid RUT.
 *
 * @example
 * tryParseRut("76.192.083-9") // { body: "76192083", dv: "9" }
 * tryParseRut("76192083-8")   // null
 */
export function tryParseRut(input: string): Rut | null {
  if (typeof input !== "string") return null;
  const clean = cleanRut(input);
  const m = /^(\d{1,9})([\dK])$/.exec(clean);
  if (!m) return null;
  const body = m[1]!.replace(/^0+(?=\d)/, "");
  const dv = m[2]!;
  if (body === "0") return null;
  if (computeDv(body) !== dv) return null;
  return { body, dv };
}

/**
 * Parses a RUT, throwing `INVALID_RUT` when it is malformed or its check digit is wrong.
 *
 * @example
 * parseRut("76192083-9") // { body: "76192083", dv: "9" }
 */
export function parseRut(input: string): Rut {
  const rut = tryParseRut(input);
  if (!rut) throw new TimbreError("INVALID_RUT", `invalid RUT: ${JSON.stringify(input)}`);
  return rut;
}

/**
 * `true` when the RUT is well formed and its check digit is right.
 *
 * @example
 * isValidRut("76192083-9") // true
 */
export function isValidRut(input: string): boolean {
  return tryParseRut(input) !== null;
}

/**
 * The canonical XML form `76192083-9`.
 *
 * @example
 * normalizeRut("76.192.083-k") // throws (wrong digit); normalizeRut("60.803.000-k") // "60803000-K"
 */
export function normalizeRut(input: string): string {
  const { body, dv } = parseRut(input);
  return `${body}-${dv}`;
}

/**
 * The printed form with thousands dots `76.192.083-9`.
 *
 * @example
 * formatRut("76192083-9") // "76.192.083-9"
 */
export function formatRut(input: string): string {
  const { body, dv } = parseRut(input);
  return `${body.replace(/\B(?=(\d{3})+(?!\d))/g, ".")}-${dv}`;
}
