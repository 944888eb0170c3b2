/**
 * Regenerates the sample images in docs/ (`bun test/pdf-samples.ts` from packages/core): carta factura 33,
 * carta cedible copy, térmica boleta 39 — documents signed for real with the synthetic test CAF/certificate.
 */
import { writeFileSync } from "node:fs";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { renderPdf } from "../src/pdf/index.js";
import { makeInput, makePrintable } from "./support/pdf-fixtures.js";
import { rasterize } from "./support/pdf.js";

/** A made-up logo, drawn with pdf-lib and rasterized to PNG by mupdf. */
async function sampleLogo(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([150, 60]);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawRectangle({ x: 0, y: 0, width: 150, height: 60, color: rgb(1, 1, 1) });
  page.drawCircle({ x: 30, y: 30, size: 26, color: rgb(0.09, 0.29, 0.55) });
  page.drawText("S", { x: 21, y: 19, size: 30, font: bold, color: rgb(1, 1, 1) });
  page.drawText("SASCO", { x: 62, y: 24, size: 22, font: bold, color: rgb(0.09, 0.29, 0.55) });
  return rasterize(await doc.save(), 0, 200);
}

const out = (name: string): URL => new URL(`../../../docs/${name}`, import.meta.url);
const logo = { bytes: await sampleLogo(), type: "png" as const };
const factura = makePrintable(makeInput(33, 10));
writeFileSync(out("pdf-carta-33.png"), rasterize(await renderPdf(factura, { logo }), 0, 90));
writeFileSync(out("pdf-carta-cedible.png"), rasterize(await renderPdf(factura, { logo, cedible: true }), 0, 90));
const boleta = makePrintable(makeInput(39, 5));
writeFileSync(out("pdf-termica-39.png"), rasterize(await renderPdf(boleta, { formato: "termica", logo }), 0, 150));
