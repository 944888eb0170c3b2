/**
 * Per-character facts of a standard font, asked of pdf-lib once per font and character: its advance width (in font
 * units) and its WinAnsi code as hex. pdf-lib answers each question by encoding the whole string into glyph objects
 * and looking up kerning pairs, which measuring text character by character made most of a long document's render.
 */
import type { PDFFont } from "pdf-lib";

interface Glyph {
  /** `widthOfTextAtSize(ch, 1000)`: the advance in font units (a lone character has no kerning pair). */
  units: number;
  /** The character's code in the font's encoding, two uppercase hex digits (as pdf-lib's `encodeText`). */
  hex: string;
}

/** One font's characters, looked up in pdf-lib the first time each is met. */
class GlyphTable {
  private readonly glyphs = new Map<string, Glyph>();

  constructor(private readonly font: PDFFont) {}

  get(ch: string): Glyph {
    let found = this.glyphs.get(ch);
    if (!found) {
      found = { units: this.font.widthOfTextAtSize(ch, 1000), hex: this.font.encodeText(ch).toString().slice(1, -1) };
      this.glyphs.set(ch, found);
    }
    return found;
  }
}

const tables = new WeakMap<PDFFont, GlyphTable>();

function tableOf(font: PDFFont): GlyphTable {
  let table = tables.get(font);
  if (!table) {
    table = new GlyphTable(font);
    tables.set(font, table);
  }
  return table;
}

/**
 * `width` plus the width of each character of `text` at `size`, added one by one, each exactly as
 * `font.widthOfTextAtSize(ch, size)` computes it.
 *
 * @example
 * widthAfter(0, helvetica, "WW", 10) // 18.88
 */
export function widthAfter(width: number, font: PDFFont, text: string, size: number): number {
  const table = tableOf(font);
  const scale = size / 1000;
  let sum = width;
  for (const ch of text) sum += table.get(ch).units * scale;
  return sum;
}

/**
 * Text as a PDF hex string operand, byte for byte what `font.encodeText(text).toString()` gives.
 *
 * @example
 * hexText(helvetica, "Añ") // "<41F1>"
 */
export function hexText(font: PDFFont, text: string): string {
  const table = tableOf(font);
  let hex = "";
  for (const ch of text) hex += table.get(ch).hex;
  return `<${hex}>`;
}
