/**
 * PDF rendering off the server's thread: a worker pool (`threads/worker-pool.ts`) of `pdf-worker.ts` threads,
 * bounded per tenant (the caller bounds by account) and as a whole, a render past its time limit replacing its thread.
 */
import type { PrintableDocument, RenderOptions } from "@timbre/core/pdf";
import { startWorkerPool, type PoolSettings } from "../threads/worker-pool.js";
import type { PdfJob } from "./pdf-wire.js";

export interface PdfRenderer {
  /** Renders on a PDF thread; rejects with `PoolFull` at once when the bounds are reached, `PoolTimeout` past the limit. */
  render(tenant: string, document: PrintableDocument, options: RenderOptions): Promise<Uint8Array>;
  /** Starts the threads now rather than at the first render (`WorkerPool.warm`). */
  warm(): void;
  /** Stops the threads and fails what is waiting. Idempotent. */
  close(): Promise<void>;
}

export type PdfThreadsOptions = PoolSettings;

const WORKER_URL = new URL("./pdf-worker.ts", import.meta.url);

export function startPdfThreads(options: PdfThreadsOptions): PdfRenderer {
  const pool = startWorkerPool<PdfJob, Uint8Array>({ ...options, name: "PDF rendering", workerUrl: options.workerUrl ?? WORKER_URL });
  return {
    render: (tenant, document, renderOptions) => pool.run(tenant, { document, options: renderOptions }),
    warm: () => pool.warm(),
    close: () => pool.close(),
  };
}
