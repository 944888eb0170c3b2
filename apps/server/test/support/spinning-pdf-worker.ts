/**
 * A PDF thread for tests of `pdf-threads.ts`: a document whose TED is `"spin"` keeps the thread busy forever (a
 * render that never ends); any other is rendered by the real worker.
 */
import type { PdfJob } from "../../src/pdf/pdf-wire.js";
import type { PoolRequest } from "../../src/threads/pool-wire.js";

declare const self: { onmessage: ((event: MessageEvent<PoolRequest<PdfJob>>) => void) | null };

await import("../../src/pdf/pdf-worker.js");
const render = self.onmessage;
self.onmessage = (event) => {
  if (event.data.payload.document.ted === "spin") for (;;);
  render?.(event);
};

export {};
