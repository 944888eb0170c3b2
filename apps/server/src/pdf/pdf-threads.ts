/**
 * PDF rendering off the server's thread: a few worker threads (`pdf-worker.ts`), each rendering one document at a
 * time, fed from one first-come queue. What a business may hold (rendering or waiting) is bounded, and so is the
 * whole queue, so one tenant cannot fill the threads for everyone; a render past its time limit has its thread
 * terminated and replaced. Idle threads do not keep the process alive.
 */
import type { PrintableDocument, RenderOptions } from "@timbre/core/pdf";
import { fromWireError } from "../signing/signing-wire.js";
import type { PdfRequest, PdfResponse } from "./pdf-wire.js";

export interface PdfRenderer {
  /** Renders on a PDF thread; rejects with `PdfQueueFull` at once when the bounds are reached, `PdfRenderTimeout` past the limit. */
  render(businessId: string, document: PrintableDocument, options: RenderOptions): Promise<Uint8Array>;
  /** Stops the threads and fails what is waiting. Idempotent. */
  close(): Promise<void>;
}

export interface PdfThreadsOptions {
  threads: number;
  /** Time one render may take on its thread before the thread is terminated. */
  timeoutMs: number;
  /** Renders one business may have rendering or waiting at once. */
  perBusiness: number;
  /** Renders that may wait for a thread (beyond one rendering on each), all businesses together. */
  queueLimit: number;
  /** The thread's script (tests). */
  workerUrl?: URL;
}

/** Too much is already asked: of this business, or of the server. `retryAfterS`: when a thread is likely free. */
export class PdfQueueFull extends Error {
  constructor(
    readonly scope: "business" | "server",
    readonly retryAfterS: number,
  ) {
    super(scope === "business" ? "this business already has PDFs being rendered" : "the server is rendering as many PDFs as it can queue");
    this.name = "PdfQueueFull";
  }
}

export class PdfRenderTimeout extends Error {
  constructor(readonly limitMs: number) {
    super(`the PDF was not rendered within ${limitMs} ms`);
    this.name = "PdfRenderTimeout";
  }
}

/** Bun's Web `Worker`, with the `ref`/`unref` it adds. */
interface BunWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  ref(): void;
  unref(): void;
  onmessage: ((event: MessageEvent<PdfResponse>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  addEventListener(type: "close", listener: (event: Event) => void): void;
}

const BunWorkerClass = Worker as unknown as new (url: string) => BunWorker;
const WORKER_URL = new URL("./pdf-worker.ts", import.meta.url);
/** Loading pdf-lib and the renderer takes a fraction of a second; on a starved machine, seconds. */
const START_WITHIN_MS = 60_000;

interface Job {
  seq: number;
  businessId: string;
  request: PdfRequest;
  resolve: (pdf: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: BunWorker;
  /** Loaded: renders are sent only then, so a render's time limit never counts the thread's start. */
  ready: boolean;
  job: Job | null;
  timer: ReturnType<typeof setTimeout> | null;
  startedAt: number;
}

export function startPdfThreads(options: PdfThreadsOptions): PdfRenderer {
  const workerUrl = options.workerUrl ?? WORKER_URL;
  const threads: Array<Thread | null> = Array.from({ length: Math.max(1, options.threads) }, () => null);
  const waiting: Job[] = [];
  /** Renders each business has rendering or waiting. */
  const byBusiness = new Map<string, number>();
  let seq = 0;
  let closed = false;
  /** Recent render time, for `Retry-After`. */
  let averageMs = 1_000;

  const release = (job: Job): void => {
    const left = (byBusiness.get(job.businessId) ?? 1) - 1;
    if (left > 0) byBusiness.set(job.businessId, left);
    else byBusiness.delete(job.businessId);
  };

  const settle = (thread: Thread, outcome: { pdf: Uint8Array } | { error: Error }): void => {
    const job = thread.job;
    if (job === null) return;
    if (thread.timer !== null) clearTimeout(thread.timer);
    thread.job = null;
    thread.timer = null;
    thread.worker.unref();
    release(job);
    if ("pdf" in outcome) {
      averageMs = 0.8 * averageMs + 0.2 * (performance.now() - thread.startedAt);
      job.resolve(outcome.pdf);
    } else job.reject(outcome.error);
  };

  /** Terminates a thread (stuck, crashed) and fails its job; its slot starts a fresh thread when next needed. */
  const discard = (thread: Thread, error: Error): void => {
    const index = threads.indexOf(thread);
    if (index < 0) return;
    threads[index] = null;
    thread.worker.terminate();
    if (thread.timer !== null) clearTimeout(thread.timer);
    settle(thread, { error });
    dispatch();
  };

  const start = (): Thread => {
    const worker = new BunWorkerClass(workerUrl.href);
    const thread: Thread = { worker, ready: false, job: null, timer: null, startedAt: 0 };
    // a thread that does not load in time is replaced, and the render that waited longest for it fails
    thread.timer = setTimeout(() => {
      const first = waiting.shift();
      if (first) {
        release(first);
        first.reject(new PdfRenderTimeout(START_WITHIN_MS));
      }
      discard(thread, new Error("PDF thread did not start"));
    }, START_WITHIN_MS);
    worker.onmessage = ({ data: response }) => {
      if ("ready" in response) {
        if (thread.timer !== null) clearTimeout(thread.timer);
        thread.timer = null;
        thread.ready = true;
        worker.unref();
        dispatch();
        return;
      }
      if (thread.job?.seq !== response.seq) return;
      settle(thread, response.ok ? { pdf: response.pdf } : { error: fromWireError(response.error) });
      dispatch();
    };
    worker.onerror = (event) => discard(thread, new Error(`PDF thread failed: ${event.message}`));
    worker.addEventListener("close", () => discard(thread, new Error("PDF thread exited")));
    return thread;
  };

  function dispatch(): void {
    for (let i = 0; i < threads.length && waiting.length > 0 && !closed; i++) {
      let thread = threads[i] ?? null;
      if (thread?.job) continue;
      if (thread === null) threads[i] = thread = start();
      if (!thread.ready) continue;
      const job = waiting.shift() as Job;
      const running = thread;
      running.job = job;
      running.startedAt = performance.now();
      running.timer = setTimeout(() => discard(running, new PdfRenderTimeout(options.timeoutMs)), options.timeoutMs);
      running.worker.ref();
      running.worker.postMessage(job.request);
    }
  }

  const rendering = (): number => threads.reduce((n, t) => n + (t?.job ? 1 : 0), 0);

  /** Seconds until `ahead` renders are done on the threads, at least 1. */
  const secondsFor = (ahead: number): number => Math.max(1, Math.ceil((averageMs * Math.max(1, ahead)) / threads.length / 1000));

  return {
    render(businessId, document, renderOptions) {
      if (closed) return Promise.reject(new Error("PDF threads closed"));
      const mine = byBusiness.get(businessId) ?? 0;
      if (mine >= options.perBusiness) return Promise.reject(new PdfQueueFull("business", secondsFor(mine)));
      const held = rendering() + waiting.length;
      if (held >= threads.length + options.queueLimit) return Promise.reject(new PdfQueueFull("server", secondsFor(held)));
      byBusiness.set(businessId, mine + 1);
      return new Promise<Uint8Array>((resolve, reject) => {
        const n = ++seq;
        waiting.push({ seq: n, businessId, request: { seq: n, document, options: renderOptions }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) {
        release(job);
        job.reject(new Error("PDF threads closed"));
      }
      for (const thread of threads) if (thread) discard(thread, new Error("PDF threads closed"));
    },
  };
}
