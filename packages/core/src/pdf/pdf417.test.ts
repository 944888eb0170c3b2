import { describe, expect, test } from "bun:test";
import { decodePdf417Pixels } from "../../test/support/pdf.js";
import { MIN_MODULE, MM, placeTimbre, tedBytes } from "./barcode.js";
import { byteCompaction, encodePdf417, errorCorrection, type Pdf417Symbol } from "./pdf417.js";

/** The symbol as an RGBA bitmap (scale px per module, rows 3 modules tall, quiet zone 4 modules). */
async function decodeSymbol(symbol: Pdf417Symbol, scale = 2): Promise<string[]> {
  const q = 4;
  const width = (symbol.width + 2 * q) * scale;
  const height = (symbol.rows * 3 + 2 * q) * scale;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let y = 0; y < symbol.rows * 3 * scale; y++) {
    const row = symbol.modules[Math.floor(y / 3 / scale)];
    for (let x = 0; x < symbol.width * scale; x++) {
      if (row?.[Math.floor(x / scale)] !== 1) continue;
      const o = ((y + q * scale) * width + x + q * scale) * 4;
      data[o] = data[o + 1] = data[o + 2] = 0;
    }
  }
  return decodePdf417Pixels(data, width, height);
}

describe("PDF417 encoder", () => {
  test("byte compaction: 6 bytes → 5 base-900 codewords, latch 924 when a multiple of 6, else 901", () => {
        const six = byteCompaction(new TextEncoder().encode("alcool"));
    expect(six[0]).toBe(924);
    let value = 0;
    for (const cw of six.slice(1)) value = value * 900 + cw;
    expect(value).toBe(0x616c636f6f6c);
    expect(byteCompaction(new Uint8Array([1, 2, 255]))).toEqual([901, 1, 2, 255]);
  });

  test("error correction level 5 adds 64 codewords; level 0 matches the ISO coefficients", () => {
    expect(errorCorrection([5, 453, 178, 121, 239], 5)).toHaveLength(64);
    // ISO/IEC 15438 Annex Q example: data 5 453 178 121 239 at level 1 → EC 452 327 657 619
    expect(errorCorrection([5, 453, 178, 121, 239], 1)).toEqual([452, 327, 657, 619]);
  });

  test("every byte value round-trips through zxing at several column counts", async () => {
    const bytes = new Uint8Array(256 * 3).map((_, i) => (i * 7) % 256);
    const expected = Buffer.from(bytes).toString("latin1");
    for (const columns of [9, 15, 22, 30]) {
      const symbol = encodePdf417(bytes, { columns, level: 5 });
      expect(symbol.width).toBe(69 + 17 * columns);
      expect(await decodeSymbol(symbol)).toEqual([expected]);
    }
  });

  test("refuses what does not fit", () => {
    expect(() => encodePdf417(new Uint8Array(2000), { columns: 10, level: 5 })).toThrow(RangeError);
  });

  test("placeTimbre keeps modules ≥ 0.17 mm, height ≥ the minimum and rows ≈ 3 modules", () => {
    const ted = `<TED version="1.0"><DD>${"Ñandú ".repeat(130)}</DD></TED>`;
    const placed = placeTimbre(ted, { width: 60 * MM, maxHeight: 32 * MM, minHeight: 20 * MM });
    const module = placed.width / placed.symbol.width;
    expect(module).toBeGreaterThanOrEqual(MIN_MODULE);
    expect(placed.height).toBeGreaterThanOrEqual(20 * MM);
    expect(placed.height).toBeLessThanOrEqual(32 * MM);
    const rowHeight = placed.height / placed.symbol.rows;
    expect(rowHeight / module).toBeGreaterThanOrEqual(2.9);
    expect(rowHeight / module).toBeLessThanOrEqual(4);
  });

  test("tedBytes refuses characters outside ISO-8859-1", () => {
    expect(Array.from(tedBytes("Ñ"))).toEqual([0xd1]);
    expect(() => tedBytes("€")).toThrow(/ISO-8859-1/);
  });
});
