import { expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { hexText, widthAfter } from "./glyphs.js";
import { drawnWidth, toWinAnsi, wrapText } from "./text.js";

const doc = await PDFDocument.create();
const fonts = await Promise.all([StandardFonts.Helvetica, StandardFonts.HelveticaBold].map((f) => doc.embedFont(f)));
const SAMPLE = toWinAnsi("Ñandú «ÁÉÍÓÚ» — 1.234,50 € “Œuvre” ™ WAVE Tí");

test("widths and hex codes are pdf-lib's own, character by character", () => {
  for (const font of fonts) {
    for (const size of [6.3, 7, 8.5, 15]) {
      let expected = 0;
      for (const ch of SAMPLE) expected += font.widthOfTextAtSize(ch, size);
      expect(widthAfter(0, font, SAMPLE, size)).toBe(expected);
      expect(drawnWidth(font, SAMPLE, size)).toBe(expected);
    }
    expect(hexText(font, SAMPLE)).toBe(font.encodeText(SAMPLE).toString());
  }
});

test("a line measured as it grows is the line measured whole, so wrapping breaks where it always did", () => {
  const [font] = fonts;
  if (!font) throw new Error("no font");
  const grown = widthAfter(widthAfter(0, font, "Servicio de", 7), font, " mantención", 7);
  expect(grown).toBe(drawnWidth(font, "Servicio de mantención", 7));
  const text = `${"palabra ".repeat(40)}${"X".repeat(300)} fin`;
  const lines = wrapText(text, font, 7, 200);
  for (const line of lines) expect(drawnWidth(font, line, 7)).toBeLessThanOrEqual(200);
  expect(lines.join("").replace(/ /g, "")).toBe(text.replace(/ /g, ""));
  // each line but the last is full: the next word (or character of a long word) would not have fitted
  lines.slice(0, -1).forEach((line, i) => {
    const next = lines[i + 1] ?? "";
    const more = next.startsWith("X") && line.endsWith("X") ? `${line}X` : `${line} ${next.split(" ")[0] ?? ""}`;
    expect(drawnWidth(font, more, 7)).toBeGreaterThan(200);
  });
});

test("toWinAnsi keeps WinAnsi text as it is and still replaces what is not", () => {
  expect(toWinAnsi("Ñandú € “ok”")).toBe("Ñandú € “ok”");
  expect(toWinAnsi("A\u0301rbol")).toBe("Árbol");
  expect(toWinAnsi("tab\there 😀 ā\u00a0")).toBe("tab here ? a ");
});
