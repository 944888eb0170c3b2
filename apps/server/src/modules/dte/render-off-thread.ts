/**
 * A PDF rendered on the PDF threads for a business, their refusals as the contract's errors: too many renders of
 * the business's account (all its businesses together: an account may hold any number of businesses) or of the
 * server → 429 `RATE_LIMITED` with `retry_after` (the pipeline sets `Retry-After`); a render past its time limit
 * → 503 `UNAVAILABLE` (its thread was replaced; nothing of the document is echoed).
 */
import type { PrintableDocument, RenderOptions } from "@timbre/core/pdf";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError } from "../../http/errors.js";
import { PoolFull, PoolTimeout } from "../../threads/worker-pool.js";

export async function renderOffThread(deps: Deps, scope: BusinessScope, document: PrintableDocument, options: RenderOptions): Promise<Uint8Array> {
  try {
    return await deps.pdf.render(scope.userId, document, options);
  } catch (error) {
    if (error instanceof PoolFull) {
      const message = error.scope === "tenant"
        ? `at most ${deps.config.pdfRendersPerAccount} PDFs of one account are rendered at once; try again shortly`
        : "the server is rendering as many PDFs as it can take; try again shortly";
      const reason = error.scope === "tenant" ? "pdf_renders_per_account" : "pdf_queue_full";
      throw new ApiError("RATE_LIMITED", message, { reason, retry_after: error.retryAfterS }, error);
    }
    if (error instanceof PoolTimeout) {
      throw new ApiError("UNAVAILABLE", `the PDF could not be rendered within ${Math.round(error.limitMs / 1000)} s; try again later`, { reason: "pdf_render_timeout" }, error);
    }
    throw error;
  }
}
