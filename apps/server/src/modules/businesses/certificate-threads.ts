/**
 * Reads certificate uploads off the server's thread: each PKCS#12 is read on a reading thread
 * (`certificate-worker.ts`) that is ended when its time is up, so no file can hold the event
 * loop (`/health`, other tenants' requests, SIGTERM) however much work it asks for. Core already refuses
 * iteration counts beyond what real certificates use; the time limit covers whatever else a file could cost.
 */
import { createPrivateKey } from "node:crypto";
import { checkPkcs12Derivations } from "@timbre/core/certificates";
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
 * Real certificates (2048–10 000 iterations) read in about a second; this leaves room for files at 100 000 on a busy
 * machine (node-forge's PBKDF2 is pure JavaScript) and stays under the HTTP server's 30 s idle timeout, so the
 * client gets the 422.
 */
export const CERTIFICATE_TIME_LIMIT_MS = 20_000;

const invalid = (reason: string, message: string, details: Record<string, unknown> = {}) =>
  new TimbreError("CERTIFICATE_INVALID", message, { details: { reason, ...details } });

function fromWire(certificate: Extract<CertificateReply, { ok: true }>["certificate"]): LoadedCertificateInfo {
  const { privateKeyDer, ...fields } = certificate;
  return { ...fields, privateKey: createPrivateKey({ key: Buffer.from(privateKeyDer), format: "der", type: "pkcs8" }) };
}

/**
 * Reads one file on `worker`; resolves with the outcome and whether the thread may read again (not when it ran
 * out of time or failed: it is then ended).
 */
function readOn(worker: BunWorker, timeLimitMs: number, request: CertificateRequest): Promise<{ read: () => LoadedCertificateInfo; reusable: boolean }> {
  return new Promise((resolve) => {
    const settle = (read: () => LoadedCertificateInfo, reusable: boolean) => {
      clearTimeout(timer);
      worker.onmessage = null;
      worker.onerror = null;
      if (!reusable) worker.terminate();
      resolve({ read, reusable });
    };
    const timer = setTimeout(() => {
      const error = invalid("timeout", `reading the certificate took longer than ${timeLimitMs / 1000} s`, { limit_ms: timeLimitMs });
      settle(() => {
        throw error;
      }, false);
    }, timeLimitMs);
    worker.onmessage = ({ data }) =>
      settle(() => {
        if (!data.ok) throw fromWireError(data.error);
        return fromWire(data.certificate);
      }, true);
    // The thread failed on the file itself (e.g. a reader's stack overflow): the client's file, not our error.
    worker.onerror = (event) => {
      const error = invalid("format", "the certificate file could not be read", { detail: event.message });
      settle(() => {
        throw error;
      }, false);
    };
    worker.postMessage(request);
  });
}

/**
 * The certificate loader of a process: up to `concurrency` reading threads, kept between uploads (starting one
 * and loading the readers costs about a second), each ended and replaced when a read runs out of time.
 */
export function certificateThreads(options: CertificateThreadsOptions = {}): CertificateLoader {
  const timeLimitMs = options.timeLimitMs ?? CERTIFICATE_TIME_LIMIT_MS;
  const concurrency = options.concurrency ?? 2;
  const workerUrl = options.workerUrl ?? WORKER_URL;
  const idle: BunWorker[] = [];
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
  const start = (): BunWorker => {
    const worker = new BunWorkerClass(workerUrl.href, { smol: true });
    worker.unref(); // an idle reading thread never keeps the process alive
    return worker;
  };

  return {
    async load(bytes, password) {
      // Here, at once: a file asking for too much derivation work never waits for (or takes) a reading thread.
      checkPkcs12Derivations(bytes);
      await acquire();
      try {
        const worker = idle.pop() ?? start();
        const { read, reusable } = await readOn(worker, timeLimitMs, { bytes, password });
        if (reusable) idle.push(worker);
        return read();
      } finally {
        release();
      }
    },
  };
}
