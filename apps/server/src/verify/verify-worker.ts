/** A verification thread: checks the received envelopes it is sent (`check-envelope.ts`), one at a time. */
import type { ReceivedEnvelopeResult } from "@timbre/core";
import { createPublicKey } from "node:crypto";
import { serveJobs } from "../threads/serve-jobs.js";
import { checkEnvelope } from "./check-envelope.js";
import type { VerifyJob } from "./verify-wire.js";

serveJobs<VerifyJob, ReceivedEnvelopeResult>(async ({ bytes, rutReceptor, authorities }) => {
  const keys = authorities.map(({ idk, spki }) => ({ idk, publicKey: createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" }) }));
  return { result: await checkEnvelope(bytes, rutReceptor, keys) };
});
