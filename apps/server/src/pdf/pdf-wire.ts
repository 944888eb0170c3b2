/** What the server's thread sends a PDF thread (`pdf-worker.ts`); the thread answers the PDF's bytes. */
import type { PrintableDocument, RenderOptions } from "@timbre/core/pdf";

export interface PdfJob {
  document: PrintableDocument;
  options: RenderOptions;
}
