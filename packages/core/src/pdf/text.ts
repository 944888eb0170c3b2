/** Text for the standard Helvetica font (WinAnsi): safe characters and word wrapping. */
import type { PDFFont } from "pdf-lib";
import { widthAfter } from "./glyphs.js";

/** Code points of WinAnsiEncoding outside ASCII and Latin-1 (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ' ' " " • – — ˜ ™ š › œ ž Ÿ). */
const WIN_ANSI_EXTRA = new Set([0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160,
  0x2039, 0x0152, 0x017d, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0x017e, 0x0178]);

/** Text made only of characters `isWinAnsi` keeps (most text): returned as it is, without a loop. */
const ALL_WIN_ANSI = new RegExp(`^[\\x20-\\x7e\\xa1-\\xff${String.fromCodePoint(...WIN_ANSI_EXTRA)}]*$`);

const isWinAnsi = (cp: number): boolean =>
  (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa1 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp);

/**
 * Makes text printable with a standard PDF font: controls and odd spaces become spaces, accented letters outside
 * WinAnsi lose their accent (`ā` → `a`), anything else becomes `?`. Never throws.
 *
 * @example
 * toWinAnsi("Ñandú 😀 ā") // "Ñandú ? a"
 */
export function toWinAnsi(text: string): string {
  const normal = text.normalize("NFC");
  if (ALL_WIN_ANSI.test(normal)) return normal;
  let out = "";
  for (const ch of normal) {
    const cp = ch.codePointAt(0) ?? 0x3f;
    if (isWinAnsi(cp)) out += ch;
    else if (cp < 0x20 || cp === 0xa0 || (cp >= 0x2000 && cp <= 0x200b) || cp === 0x7f) out += " ";
    else {
      const base = ch.normalize("NFD").replace(/\p{M}/gu, "");
      out += base !== "" && [...base].every((c) => isWinAnsi(c.codePointAt(0) ?? 0)) ? base : "?";
    }
  }
  return out;
}

/**
 * The width of text as it is drawn: the sum of its glyphs' advances. pdf-lib's `widthOfTextAtSize` subtracts the
 * font's kerning pairs, which the page's text operators never apply, so it measures "CEDIBLE CON SU FACTURA" about
 * 2 pt narrower than it prints (and right-aligned text would run past its edge).
 *
 * @example
 * drawnWidth(font, "FACTURA", 15) // ≥ font.widthOfTextAtSize("FACTURA", 15)
 */
export function drawnWidth(font: PDFFont, text: string, size: number): number {
  // summed character by character: a line measured as it grows (widthAfter) gets the very same number
  return widthAfter(0, font, text, size);
}

/** Cuts a word wider than `maxWidth` into pieces that fit. */
function breakWord(word: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  let width = 0;
  for (const ch of word) {
    const wider = widthAfter(width, font, ch, size);
    if (piece !== "" && wider > maxWidth) {
      pieces.push(piece);
      piece = ch;
      width = widthAfter(0, font, ch, size);
    } else {
      piece += ch;
      width = wider;
    }
  }
  if (piece !== "") pieces.push(piece);
  return pieces;
}

/**
 * Wraps text to lines no wider than `maxWidth` (explicit newlines kept); optionally at most `maxLines`, the last one
 * ending in `…`. Returns WinAnsi-safe lines.
 *
 * @example
 * wrapText("Servicio de Impuestos Internos", font, 9, 80) // ["Servicio de", "Impuestos", "Internos"]
 */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number, maxLines = Infinity): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    const words = toWinAnsi(paragraph).split(" ").filter((w) => w !== "");
    let line = "";
    let width = 0;
    for (const word of words) {
      const candidate = line === "" ? word : `${line} ${word}`;
      const candidateWidth = widthAfter(width, font, line === "" ? word : ` ${word}`, size);
      if (candidateWidth <= maxWidth) {
        line = candidate;
        width = candidateWidth;
        continue;
      }
      if (line !== "") lines.push(line);
      const pieces = breakWord(word, font, size, maxWidth);
      line = pieces.pop() ?? "";
      width = drawnWidth(font, line, size);
      lines.push(...pieces);
    }
    if (line !== "" || words.length === 0) lines.push(line);
  }
  while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1] ?? "";
  while (last !== "" && drawnWidth(font, `${last}…`, size) > maxWidth) last = last.slice(0, -1);
  kept[maxLines - 1] = `${last.trimEnd()}…`;
  return kept;
}
