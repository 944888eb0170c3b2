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

/** Plain text of every page. */
export function pageTexts(pdf: Uint8Array): string[] {
  const doc = open(pdf);
  return Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).toStructuredText("preserve-whitespace").asText());
}

/** Every PDF417 found on the page, as Latin-1 text of its raw bytes. */
export async function decodePdf417(png: Uint8Array): Promise<string[]> {
  await loadZxing();
  const results = await readBarcodes(png, { formats: ["PDF417"], tryHarder: true, maxNumberOfSymbols: 4 });
  return results.filter((r) => r.isValid).map((r) => Buffer.from(r.bytes).toString("latin1"));
}
