/** A PDF thread: renders the documents it is sent with core's `renderPdf`, one at a time, and hands the bytes back. */
import { renderPdf } from "@timbre/core/pdf";
import { toWireError } from "../signing/signing-wire.js";
import type { PdfRequest, PdfResponse } from "./pdf-wire.js";

declare const self: {
  onmessage: ((event: MessageEvent<PdfRequest>) => void) | null;
  postMessage(message: PdfResponse, transfer?: Transferable[]): void;
};

self.onmessage = async ({ data: { seq, document, options } }) => {
  try {
    const pdf = await renderPdf(document, options);
    self.postMessage({ seq, ok: true, pdf }, [pdf.buffer as ArrayBuffer]);
  } catch (error) {
    self.postMessage({ seq, ok: false, error: toWireError(error) });
  }
};
self.postMessage({ ready: true });
