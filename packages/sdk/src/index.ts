export { DEFAULT_BASE_URL, SDK_VERSION, Timbre, type TimbreOptions } from "./client.js";
export { normalizeApiUrl } from "./api-url.js";
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  TimbreError,
  ValidationError,
  type ValidationIssue,
} from "./errors.js";
export { PagePromise } from "./pagination.js";
export type { RequestOptions } from "./transport.js";
export * from "./types.js";
export { PERMISSIONS } from "./permissions.js";
export { WebhookVerificationError, Webhooks, webhooks, type SignParams, type VerifyOptions, type WebhookHeaders } from "./webhooks.js";
export type { BatchAllOptions, BatchAllResult, WaitOptions } from "./resources/dte.js";
export { BATCH_MAX_BYTES, BATCH_MAX_DOCUMENTS, chunkDocuments, sendInChunks, withContentKeys, type BatchChunk } from "./batch-chunks.js";
