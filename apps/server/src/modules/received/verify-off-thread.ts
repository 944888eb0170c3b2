/**
 * A received envelope checked on the verification threads for a business, their refusals as the contract's errors:
 * too many envelopes of this business or of the server → 429 `RATE_LIMITED` with `retry_after` (the pipeline sets
 * `Retry-After`); an envelope past its time limit → 503 `UNAVAILABLE` (its thread was replaced; nothing is kept).
 */
import type { ReceivedEnvelopeResult } from "@timbre/core";
import type { BusinessRow } from "../../db/businesses.js";
import type { Environment } from "../../db/api-keys.js";
import type { Deps } from "../../deps.js";
import { ApiError } from "../../http/errors.js";
import { PoolFull, PoolTimeout } from "../../threads/worker-pool.js";

export async function verifyOffThread(deps: Deps, business: BusinessRow, environment: Environment, bytes: Uint8Array): Promise<ReceivedEnvelopeResult> {
  const gateway = await deps.sii();
  try {
    return await deps.verifier.verify(business.id, bytes, business.rut, gateway.authorities(environment));
  } catch (error) {
    if (error instanceof PoolFull) {
      const business = error.scope === "tenant";
      const message = business
        ? `at most ${deps.config.verifyEnvelopesPerBusiness} received envelopes of one business are verified at once; try again shortly`
        : "the server is verifying as many received envelopes as it can take; try again shortly";
      throw new ApiError("RATE_LIMITED", message, { reason: business ? "verify_per_business" : "verify_queue_full", retry_after: error.retryAfterS }, error);
    }
    if (error instanceof PoolTimeout) {
      throw new ApiError("UNAVAILABLE", `the envelope could not be verified within ${Math.round(error.limitMs / 1000)} s; try again later`, { reason: "verify_timeout" }, error);
    }
    throw error;
  }
}
