/**
 * PDF test helpers: rasterize pages with mupdf (WebAssembly), decode PDF417 with zxing-wasm (its packaged .wasm,
 * never the CDN), and extract page text with mupdf structured text.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as mupdf from "mupdf";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";

let zxingReady: Promise<unknown> | null = null;

function loadZxing(): Promise<unknown> {
  if (!zxingReady) {
    const path = createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm");
    const file = readFileSync(path);
    const wasmBinary = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    zxingReady = Promise.resolve(prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true }));
  }
  return zxingReady;
}

function open(pdf: Uint8Array): mupdf.Document {
  return mupdf.Document.openDocument(pdf, "application/pdf");
}

export function pageCount(pdf: Uint8Array): number {
  return open(pdf).countPages();
}

/** Page sizes in points. */
export function pageSizes(pdf: Uint8Array): Array<{ width: number; height: number }> {
  const doc = open(pdf);
  return Array.from({ length: doc.countPages() }, (_, i) => {
    const [x0, y0, x1, y1] = doc.loadPage(i).getBounds();
    return { width: x1 - x0, height: y1 - y0 };
  });
}

/** PNG bytes of page `index` at `dpi`. */
export function rasterize(pdf: Uint8Array, index: number, dpi: number): Uint8Array {
  const page = open(pdf).loadPage(index);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
  return pixmap.asPNG();
}

/** JPEG bytes of page `index` at `dpi`. */
export function rasterizeJpeg(pdf: Uint8Array, index: number, dpi: number): Uint8Array {
  const page = open(pdf).loadPage(index);
  return page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true).asJPEG(80);
}

/** Plain text of every page. */
export function pageTexts(pdf: Uint8Array): string[] {
  const doc = open(pdf);
  return Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).toStructuredText("preserve-whitespace").asText());
}

export interface FoundSymbol {
  /** The raw bytes decoded as Latin-1. */
  text: string;
  /** Bounding box in pixels. */
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Every PDF417 found in a PNG, with its raw bytes as Latin-1 text and its box. */
export async function readPdf417(png: Uint8Array): Promise<FoundSymbol[]> {
  await loadZxing();
  const results = await readBarcodes(png, { formats: ["PDF417"], tryHarder: true, maxNumberOfSymbols: 4 });
  return results
    .filter((r) => r.isValid)
    .map((r) => {
      const { topLeft, topRight, bottomLeft, bottomRight } = r.position;
      const xs = [topLeft.x, topRight.x, bottomLeft.x, bottomRight.x];
      const ys = [topLeft.y, topRight.y, bottomLeft.y, bottomRight.y];
      const left = Math.min(...xs);
      const top = Math.min(...ys);
      const text = Buffer.from(r.bytes).toString("latin1");
      return { text, left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
    });
}

/** Every PDF417 found in a PNG, as Latin-1 text of its raw bytes. */
export async function decodePdf417(png: Uint8Array): Promise<string[]> {
  return (await readPdf417(png)).map((s) => s.text);
}

/** Every PDF417 in an RGBA bitmap, as Latin-1 text. */
export async function decodePdf417Pixels(data: Uint8ClampedArray, width: number, height: number): Promise<string[]> {
  await loadZxing();
  const image = { data, width, height, colorSpace: "srgb" } as unknown as ImageData;
  const results = await readBarcodes(image, { formats: ["PDF417"] });
  return results.filter((r) => r.isValid).map((r) => Buffer.from(r.bytes).toString("latin1"));
}
