/** Messages between the server's thread and a pool thread (`worker-pool.ts`, `serve-jobs.ts`). */
import type { WireError } from "../signing/signing-wire.js";

export interface PoolRequest<Payload> {
  seq: number;
  payload: Payload;
}

/** A job's outcome, or `ready` once when the thread has loaded (a job's time limit starts on a ready thread). */
export type PoolResponse<Result> =
  | { seq: number; ok: true; result: Result }
  | { seq: number; ok: false; error: WireError }
  | { ready: true };
