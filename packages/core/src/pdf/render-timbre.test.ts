/**
 * Proof that the printed timbre is the TED: every tipo in both formats, signed for real with buildSignedDte,
 * rendered, rasterized by mupdf at 300 dpi and decoded by zxing-wasm back to exactly the TED's ISO-8859-1 bytes.
 * (At 150 dpi a 0.2 mm module is ~1.2 px and zxing does not decode it; printers work at ≥ 300 dpi.)
 */
import { describe, expect, test } from "bun:test";
import type { Tipo } from "../document/types.js";
import { makeInput, makePrintable } from "../../test/support/pdf-fixtures.js";
import { pageCount, pageSizes, rasterize, readPdf417 } from "../../test/support/pdf.js";
import { renderPdf } from "./render-pdf.js";

const DPI = 300;
const mm = (px: number): number => (px / DPI) * 25.4;
const TIPOS: Tipo[] = [33, 34, 39, 41, 52, 56, 61];

describe.each(["carta", "termica"] as const)("timbre in %s", (formato) => {
  test.each(TIPOS)("tipo %d decodes to exactly the TED of the signed DTE", async (tipo) => {
    const printable = makePrintable(makeInput(tipo, 4));
    const ted = printable.ted ?? "";
    expect(ted.startsWith('<TED version="1.0"><DD>')).toBe(true);
    expect(printable.xml).toContain(ted);
    expect(ted).toMatch(/[ñáé]/); // "Teclado mecánico español" is IT1

    const pdf = await renderPdf(printable, { formato });
    const last = pageCount(pdf) - 1;
    const found = await readPdf417(rasterize(pdf, last, DPI));
    expect(found.map((f) => f.text)).toEqual([ted]);

    const symbol = found[0];
    if (!symbol) throw new Error("no symbol");
    expect(mm(symbol.height)).toBeGreaterThanOrEqual(20);
    if (formato === "carta") {
      expect(mm(symbol.width)).toBeGreaterThanOrEqual(50);
      expect(mm(symbol.left)).toBeGreaterThanOrEqual(20);
      // lower part of the page
      expect(mm(symbol.top)).toBeGreaterThan(279.4 / 2);
    } else {
      expect(mm(symbol.width)).toBeGreaterThanOrEqual(45);
    }
  });
});

test("térmica is one 80 mm page whose height follows the content", async () => {
  const short = await renderPdf(makePrintable(makeInput(39, 2)), { formato: "termica" });
  const long = await renderPdf(makePrintable(makeInput(39, 30)), { formato: "termica" });
  const [a] = pageSizes(short);
  const [b] = pageSizes(long);
  expect(pageCount(short)).toBe(1);
  expect(pageCount(long)).toBe(1);
  expect(a?.width).toBeCloseTo((80 / 25.4) * 72, 1);
  expect(b?.height ?? 0).toBeGreaterThan((a?.height ?? 0) + 28 * 20);
});

test("carta pages are US Letter", async () => {
  const pdf = await renderPdf(makePrintable(makeInput(33, 2)), {});
  expect(pageSizes(pdf)).toEqual([{ width: 612, height: 792 }]);
});
