/**
 * A verification thread for tests of `verify-threads.ts`: an envelope for the receiver `"spin"` keeps the thread
 * busy forever (a verification that never ends); any other is checked by the real worker.
 */
import type { PoolRequest } from "../../src/threads/pool-wire.js";
import type { VerifyJob } from "../../src/verify/verify-wire.js";

declare const self: { onmessage: ((event: MessageEvent<PoolRequest<VerifyJob>>) => void) | null };

await import("../../src/verify/verify-worker.js");
const verify = self.onmessage;
self.onmessage = (event) => {
  if (event.data.payload.rutReceptor === "spin") for (;;);
  verify?.(event);
};

export {};
