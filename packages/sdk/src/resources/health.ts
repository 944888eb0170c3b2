import type { RequestOptions } from "../transport.js";
import type { Health as HealthResult, WithLastResponse } from "../types.js";
import { Resource } from "./resource.js";

/** `/health`: liveness of the API and its dependencies (no credential needed). */
export class Health extends Resource {
  /**
   * Service health (`GET /health`). A 503 (database down) throws `ApiError`.
   *
   * @example
   * const { status, version } = await client.health.check();
   */
  check(options?: RequestOptions): Promise<WithLastResponse<HealthResult>> {
    return this.call({ method: "GET", path: "health", options });
  }
}
