/** Messages between the server's thread and a PDF thread (`pdf-worker.ts`). */
import type { PrintableDocument, RenderOptions } from "@timbre/core/pdf";
import type { WireError } from "../signing/signing-wire.js";

export interface PdfRequest {
  seq: number;
  document: PrintableDocument;
  options: RenderOptions;
}

/** A render's outcome, or `ready` once when the thread has loaded (a render's time limit starts on a ready thread). */
export type PdfResponse =
  | { seq: number; ok: true; pdf: Uint8Array }
  | { seq: number; ok: false; error: WireError }
  | { ready: true };
