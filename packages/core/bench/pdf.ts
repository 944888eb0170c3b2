/**
 * PDF rendering throughput, one thread: `bun bench/pdf.ts` (from packages/core).
 * A 10-line factura 33 with a real TED (buildSignedDte), carta and térmica, barcode included; plus the PDF417 step
 * alone versus bwip-js (raw matrix and PNG) for the record.
 */
import bwipjs from "bwip-js/node";
import { placeTimbre, MM } from "../src/pdf/barcode.js";
import { renderPdf } from "../src/pdf/index.js";
import type { RenderOptions } from "../src/pdf/types.js";
import { makeInput, makePrintable } from "../test/support/pdf-fixtures.js";

const printable = makePrintable(makeInput(33, 10));
const ted = printable.ted ?? "";

async function measure(label: string, seconds: number, run: () => unknown): Promise<number> {
  for (let i = 0; i < 20; i++) await run();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    await run();
    n++;
  }
  const elapsed = (performance.now() - start) / 1000;
  const rate = n / elapsed;
  console.log(`${label.padEnd(44)} ${rate.toFixed(1).padStart(8)} /s  ${((elapsed / n) * 1000).toFixed(2).padStart(7)} ms  (n=${n})`);
  return rate;
}

const sizes: Record<string, number> = {};
for (const [label, options] of [
  ["renderPdf carta, 10 lines, timbre", {}],
  ["renderPdf carta cedible, 10 lines, timbre", { cedible: true }],
  ["renderPdf termica, 10 lines, timbre", { formato: "termica" }],
  ["renderPdf carta preview (no barcode)", { preview: true }],
] as Array<[string, RenderOptions]>) {
  sizes[label] = (await renderPdf(printable, options)).length;
  await measure(label, 3, () => renderPdf(printable, options));
}
console.log(`TED: ${ted.length} bytes; PDF sizes: ${Object.values(sizes).map((s) => `${(s / 1024).toFixed(1)} KiB`).join(", ")}`);
await measure("PDF417 matrix (own encoder, placeTimbre)", 2, () => placeTimbre(ted, { width: 60 * MM, maxHeight: 32 * MM, minHeight: 20 * MM }));
const bwipOptions = { bcid: "pdf417", text: ted, binarytext: true, eclevel: 5, columns: 14 };
await measure("PDF417 matrix (bwip-js raw)", 2, () => bwipjs.raw(bwipOptions));
await measure("PDF417 PNG (bwip-js toBuffer)", 2, () => bwipjs.toBuffer({ ...bwipOptions, backgroundcolor: "FFFFFF" }));
