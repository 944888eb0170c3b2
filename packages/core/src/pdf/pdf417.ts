/**
 * A small PDF417 encoder for the timbre (BRIEF §5): byte compaction only, fixed error-correction level, any column
 * count. Returns the symbol as a module matrix so callers draw it as vectors. ~0.3 ms for a 770-byte TED, versus
 * ~14 ms for bwip-js `raw()` and ~35 ms for a bwip-js PNG (measured, see bench/RESULTS.md "PDF rendering").
 */
import { codewordPattern } from "./pdf417-patterns.js";

/** A PDF417 symbol: `rows` × `columns` data codewords, `width` modules wide, one bit per module. */
export interface Pdf417Symbol {
  /** Codeword rows (each printed `rowHeight` ≈ 3 module widths tall). */
  rows: number;
  /** Data columns (codewords per row, excluding row indicators). */
  columns: number;
  /** Modules per row: 17 start + 17 left indicator + 17 × columns + 17 right indicator + 18 stop. */
  width: number;
  /** `modules[row][x]` is true for a dark module. */
  modules: Uint8Array[];
}

const START = 0b11111111010101000; // 17 modules
const STOP = 0b111111101000101001; // 18 modules
const MAX_CODEWORDS = 928;

/**
 * Byte compaction (latch 901, or 924 when the length is a multiple of 6): 6 bytes → 5 base-900 codewords.
 *
 * @example
 * byteCompaction(new Uint8Array([1, 2, 255])) // [901, 1, 2, 255]
 */
export function byteCompaction(bytes: Uint8Array): number[] {
  const out = [bytes.length % 6 === 0 ? 924 : 901];
  let i = 0;
  for (; i + 6 <= bytes.length; i += 6) {
    let value = 0; // 48 bits: exact in a double
    for (let j = 0; j < 6; j++) value = value * 256 + (bytes[i + j] ?? 0);
    const group = [0, 0, 0, 0, 0];
    for (let j = 4; j >= 0; j--) {
      group[j] = value % 900;
      value = Math.floor(value / 900);
    }
    out.push(...group);
  }
  for (; i < bytes.length; i++) out.push(bytes[i] ?? 0);
  return out;
}

const coefficientCache = new Map<number, number[]>();

/** Coefficients a₀…a_{k−1} of ∏(x − 3^i), i = 1…k, over GF(929) (the ISO 15438 Annex F tables). */
function ecCoefficients(k: number): number[] {
  const cached = coefficientCache.get(k);
  if (cached) return cached;
  let poly = [1]; // poly[j] = coefficient of x^j
  let root = 1;
  for (let i = 1; i <= k; i++) {
    root = (root * 3) % 929;
    const next = new Array<number>(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      const c = poly[j] ?? 0;
      next[j + 1] = ((next[j + 1] ?? 0) + c) % 929;
      next[j] = ((next[j] ?? 0) + 929 - ((c * root) % 929)) % 929;
    }
    poly = next;
  }
  const coefficients = poly.slice(0, k);
  coefficientCache.set(k, coefficients);
  return coefficients;
}

/**
 * Reed–Solomon error-correction codewords for `data` at `level` (k = 2^(level+1)).
 *
 * @example
 * errorCorrection([5, 453, 178, 121, 239], 1) // [452, 327, 657, 619]
 */
export function errorCorrection(data: readonly number[], level: number): number[] {
  const k = 2 ** (level + 1);
  const a = Int32Array.from(ecCoefficients(k));
  const e = new Int32Array(k);
  for (const d of data) {
    const t1 = (d + (e[k - 1] ?? 0)) % 929;
    for (let j = k - 1; j >= 1; j--) e[j] = ((e[j - 1] ?? 0) + 929 - ((t1 * (a[j] ?? 0)) % 929)) % 929;
    e[0] = (929 - ((t1 * (a[0] ?? 0)) % 929)) % 929;
  }
  return Array.from(e, (v) => (v === 0 ? 0 : 929 - v)).reverse();
}

/**
 * Rows needed for `dataCount` codewords (with length descriptor, without EC) at `columns`, or null if impossible.
 *
 * @example
 * rowsFor(646, 14, 5) // 51
 */
export function rowsFor(dataCount: number, columns: number, level: number): number | null {
  const total = dataCount + 1 + 2 ** (level + 1);
  const rows = Math.max(3, Math.ceil(total / columns));
  return rows > 90 || rows * columns > MAX_CODEWORDS ? null : rows;
}

/**
 * Encodes bytes as a PDF417 symbol (byte compaction).
 *
 * @example
 * const symbol = encodePdf417(latin1Bytes, { columns: 15, level: 5 }); // symbol.rows, symbol.modules[0][0] === 1
 */
export function encodePdf417(bytes: Uint8Array, options: { columns: number; level: number }): Pdf417Symbol {
  const { columns, level } = options;
  const payload = byteCompaction(bytes);
  const rows = rowsFor(payload.length, columns, level);
  if (columns < 1 || columns > 30 || rows === null) {
    throw new RangeError(`PDF417: ${bytes.length} bytes do not fit in ${columns} columns at level ${level}`);
  }
  const ecCount = 2 ** (level + 1);
  const dataCount = rows * columns - ecCount;
  const data = [dataCount, ...payload];
  while (data.length < dataCount) data.push(900);
  const codewords = [...data, ...errorCorrection(data, level)];

  const width = 69 + 17 * columns;
  const modules: Uint8Array[] = [];
  for (let y = 0; y < rows; y++) {
    const row = new Uint8Array(width);
    let x = 0;
    const put = (pattern: number, length: number): void => {
      for (let b = length - 1; b >= 0; b--) row[x++] = (pattern >> b) & 1;
    };
    const cluster = y % 3;
    const base = Math.floor(y / 3) * 30;
    const rowsPart = Math.floor((rows - 1) / 3);
    const levelPart = level * 3 + ((rows - 1) % 3);
    const left = base + (cluster === 0 ? rowsPart : cluster === 1 ? levelPart : columns - 1);
    const right = base + (cluster === 0 ? columns - 1 : cluster === 1 ? rowsPart : levelPart);
    put(START, 17);
    put(codewordPattern(cluster, left), 17);
    for (let c = 0; c < columns; c++) put(codewordPattern(cluster, codewords[y * columns + c] ?? 900), 17);
    put(codewordPattern(cluster, right), 17);
    put(STOP, 18);
    modules.push(row);
  }
  return { rows, columns, width, modules };
}
