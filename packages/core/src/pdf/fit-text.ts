/** Mandatory text is never cut: it shrinks to fit its space down to a legible floor, and wraps beyond that. */
import type { FontKind, Sheet } from "./sheet.js";

/** Smallest size the SII formato's mandatory fields are ever printed at. */
export const MIN_LEGIBLE_SIZE = 7;
const STEP = 0.25;

export interface FitOptions {
  /** Preferred size. */
  size: number;
  /** Floor (≥ {@link MIN_LEGIBLE_SIZE} for mandatory text). */
  minSize: number;
  width: number;
  /** Lines wanted at most; beyond them the text is wrapped at `minSize` on as many lines as it takes. */
  maxLines: number;
  font?: FontKind;
}

export interface FittedText {
  size: number;
  lines: string[];
}

/**
 * The largest size from `size` down to `minSize` at which `text` fits `width` in `maxLines` lines; if none does,
 * the whole text wrapped at `minSize`. Never drops a character.
 *
 * @example
 * fitText(sheet, "123.456.789,123456", { size: 8.5, minSize: 7, width: 64, maxLines: 1 })
 * // { size: 7, lines: ["123.456.789,12345", "6"] }: wrapped at 7 pt, as even 7 pt does not fit one line
 */
export function fitText(sheet: Sheet, text: string, options: FitOptions): FittedText {
  const { minSize, width, maxLines, font = "regular" } = options;
  for (let size = options.size; size > minSize; size -= STEP) {
    const lines = sheet.wrap(text, size, width, font);
    if (lines.length <= maxLines) return { size, lines };
  }
  return { size: minSize, lines: sheet.wrap(text, minSize, width, font) };
}
