/**
 * Reads certificate uploads off the server's thread: each PKCS#12 is read on a thread of its own
 * (`certificate-worker.ts`) that is ended when it answers or when its time is up, so no file can hold the event
 * loop (`/health`, other tenants' requests, SIGTERM) however much work it asks for. Core already refuses
 * iteration counts beyond what real certificates use; the time limit covers whatever else a file could cost.
 */
import { createPrivateKey } from "node:crypto";
import { TimbreError } from "@timbre/core/errors";
import { fromWireError } from "../../signing/signing-wire.js";
import type { CertificateLoader, LoadedCertificateInfo } from "./certificate-loader.js";
import type { CertificateReply, CertificateRequest } from "./certificate-wire.js";

export interface CertificateThreadsOptions {
  /** A read that takes longer is ended: 422 `CERTIFICATE_INVALID`, reason `timeout`. */
  timeLimitMs?: number;
  /** Reads at once in this process; further uploads wait for a free one. */
  concurrency?: number;
  /** The thread's script (tests). */
  workerUrl?: URL;
}

/** Bun's Web `Worker`, with the `unref` and `smol` it adds. */
interface BunWorker {
  postMessage(message: CertificateRequest): void;
  terminate(): void;
  unref(): void;
  onmessage: ((event: MessageEvent<CertificateReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}
const BunWorkerClass = Worker as unknown as new (url: string, options: { smol?: boolean }) => BunWorker;

const WORKER_URL = new URL("./certificate-worker.ts", import.meta.url);

/**
 * A real certificate reads in well under a second; one at the highest iteration counts core allows takes a few
 * seconds with node-forge on a busy machine.
 */
export const CERTIFICATE_TIME_LIMIT_MS = 20_000;

const invalid = (reason: string, message: string, details: Record<string, unknown> = {}) =>
  new TimbreError("CERTIFICATE_INVALID", message, { details: { reason, ...details } });

function fromWire(certificate: Extract<CertificateReply, { ok: true }>["certificate"]): LoadedCertificateInfo {
  const { privateKeyDer, ...fields } = certificate;
  return { ...fields, privateKey: createPrivateKey({ key: Buffer.from(privateKeyDer), format: "der", type: "pkcs8" }) };
}

/** Reads one file on a fresh thread; settles once, ending the thread. */
function readOnThread(workerUrl: URL, timeLimitMs: number, request: CertificateRequest): Promise<LoadedCertificateInfo> {
  return new Promise((resolve, reject) => {
    const worker = new BunWorkerClass(workerUrl.href, { smol: true });
    worker.unref();
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      worker.onmessage = null;
      worker.onerror = null;
      worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => settle(() => reject(invalid("timeout", `reading the certificate took longer than ${timeLimitMs / 1000} s`, { limit_ms: timeLimitMs }))),
      timeLimitMs,
    );
    worker.onmessage = ({ data }) => settle(() => (data.ok ? resolve(fromWire(data.certificate)) : reject(fromWireError(data.error))));
    // The thread failed on the file itself (e.g. a reader's stack overflow): the client's file, not our error.
    worker.onerror = (event) => settle(() => reject(invalid("format", "the certificate file could not be read", { detail: event.message })));
    worker.postMessage(request);
  });
}

export function certificateThreads(options: CertificateThreadsOptions = {}): CertificateLoader {
  const timeLimitMs = options.timeLimitMs ?? CERTIFICATE_TIME_LIMIT_MS;
  const concurrency = options.concurrency ?? 2;
  const workerUrl = options.workerUrl ?? WORKER_URL;
  let running = 0;
  const waiting: Array<() => void> = [];
  /** A slot to read in; a released slot passes straight to the first waiting upload. */
  const acquire = async (): Promise<void> => {
    if (running < concurrency) running++;
    else await new Promise<void>((resume) => waiting.push(resume));
  };
  const release = () => {
    const resume = waiting.shift();
    if (resume) resume();
    else running--;
  };

  return {
    async load(bytes, password) {
      await acquire();
      try {
        return await readOnThread(workerUrl, timeLimitMs, { bytes, password });
      } finally {
        release();
      }
    },
  };
}
