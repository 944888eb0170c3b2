/** A PDF thread: renders the documents it is sent with core's `renderPdf`, one at a time, and hands the bytes back. */
import { renderPdf } from "@timbre/core/pdf";
import { serveJobs } from "../threads/serve-jobs.js";
import type { PdfJob } from "./pdf-wire.js";

serveJobs<PdfJob, Uint8Array>(async ({ document, options }) => {
  const pdf = await renderPdf(document, options);
  return { result: pdf, transfer: [pdf.buffer as ArrayBuffer] };
});
