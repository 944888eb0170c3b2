/**
 * A signing thread that signs nothing: each job's answer is an error naming its folio and how many jobs came in its
 * message (tests of `signing-threads.ts`'s batching).
 */
import type { SignRequest, SignResponse } from "../../src/signing/signing-wire.js";

declare const self: { onmessage: ((event: MessageEvent<SignRequest>) => void) | null; postMessage(message: SignResponse): void };

self.onmessage = ({ data: { seq, jobs } }) => {
  self.postMessage({ seq, results: jobs.map((job) => ({ ok: false, error: { name: "Error", message: `folio ${job.input.folio} in a message of ${jobs.length}` } })) });
};
