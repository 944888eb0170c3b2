/**
 * Verification of received envelopes off the server's thread (issue 45): a worker pool (`threads/worker-pool.ts`)
 * of `verify-worker.ts` threads, bounded per business and as a whole, an envelope past its time limit replacing
 * its thread. Only the parse, schema and signature checks run there; what is kept is written by the caller.
 */
import type { ReceivedEnvelopeResult } from "@timbre/core";
import type { AuthorityKey } from "@timbre/core/caf";
import { startWorkerPool, type PoolSettings } from "../threads/worker-pool.js";
import type { VerifyJob } from "./verify-wire.js";

export interface EnvelopeVerifier {
  /** Checks an envelope on a thread; rejects with `PoolFull` at once when the bounds are reached, `PoolTimeout` past the limit. */
  verify(businessId: string, bytes: Uint8Array, rutReceptor: string, authorities: AuthorityKey[]): Promise<ReceivedEnvelopeResult>;
  /** Stops the threads and fails what is waiting. Idempotent. */
  /** Starts the threads now rather than at the first envelope (`WorkerPool.warm`). */
  warm(): void;
  close(): Promise<void>;
}

export type VerifyThreadsOptions = PoolSettings;

const WORKER_URL = new URL("./verify-worker.ts", import.meta.url);

export function startVerifyThreads(options: VerifyThreadsOptions): EnvelopeVerifier {
  const pool = startWorkerPool<VerifyJob, ReceivedEnvelopeResult>({ ...options, name: "envelope verification", workerUrl: options.workerUrl ?? WORKER_URL });
  return {
    verify(businessId, bytes, rutReceptor, authorities) {
      const keys = authorities.map(({ idk, publicKey }) => ({ idk, spki: new Uint8Array(publicKey.export({ type: "spki", format: "der" })) }));
      return pool.run(businessId, { bytes, rutReceptor, authorities: keys });
    },
    warm: () => pool.warm(),
    close: () => pool.close(),
  };
}
