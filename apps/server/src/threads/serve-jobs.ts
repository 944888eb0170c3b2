/**
 * The thread's side of a worker pool (`worker-pool.ts`): runs each job it is sent with `handle`, one at a time,
 * hands back the result (with the buffers to transfer rather than copy) or the error as data, and says `ready`
 * once its imports have loaded.
 */
import { toWireError } from "../signing/signing-wire.js";
import type { PoolRequest, PoolResponse } from "./pool-wire.js";

/** What a job's handler returns: the result, and buffers inside it to move to the server's thread. */
export interface Handled<Result> {
  result: Result;
  transfer?: Transferable[];
}

declare const self: {
  onmessage: ((event: MessageEvent<PoolRequest<unknown>>) => void) | null;
  postMessage(message: PoolResponse<unknown>, transfer?: Transferable[]): void;
};

/** Installs `handle` as this thread's job handler and tells the pool the thread is ready. */
export function serveJobs<Payload, Result>(handle: (payload: Payload) => Promise<Handled<Result>> | Handled<Result>): void {
  self.onmessage = async ({ data: { seq, payload } }) => {
    try {
      const { result, transfer } = await handle(payload as Payload);
      self.postMessage({ seq, ok: true, result }, transfer ?? []);
    } catch (error) {
      self.postMessage({ seq, ok: false, error: toWireError(error) });
    }
  };
  self.postMessage({ ready: true });
}
