/** The error of one item of a batch (or batch check) as the API writes it; an unexpected one is logged, not leaked. */
import type { Deps } from "../../deps.js";
import { toApiError } from "../../http/errors.js";
import { errorMessage } from "../../log.js";

export interface BatchItemError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export function batchItemError(deps: Deps, index: number, error: unknown): BatchItemError {
  const apiError = toApiError(error);
  if (apiError.apiCode === "INTERNAL_ERROR") deps.log.error("dte.batch_item_failed", { index, message: errorMessage(error).slice(0, 300) });
  return { code: apiError.apiCode, message: apiError.message, ...(apiError.details !== undefined ? { details: apiError.details } : {}) };
}
