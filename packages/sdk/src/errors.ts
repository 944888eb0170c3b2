/**
 * Error classes of the SDK, one per thing the caller does next, and the one place that maps an
 * HTTP answer to them (`errorFromResponse`).
 */

export interface TimbreErrorInit {
  code: string;
  message: string;
  status?: number | undefined;
  requestId?: string | undefined;
  details?: Record<string, unknown> | undefined;
  headers?: Headers | undefined;
  cause?: unknown;
}

/**
 * Base class of every error the SDK throws for an API call. Branch on `code` (the API's closed list)
 * or on the subclass.
 *
 * @example
 * try {
 *   await client.dte.emit(invoice);
 * } catch (error) {
 *   if (error instanceof TimbreError) console.error(error.code, error.requestId);
 * }
 */
export class TimbreError extends Error {
  override readonly name: string = "TimbreError";
  /** API error code (`VALIDATION_ERROR`, `FOLIOS_EXHAUSTED`, …) or `CONNECTION_ERROR` / `TIMEOUT`. */
  readonly code: string;
  /** HTTP status, `undefined` when no answer was received. */
  readonly status: number | undefined;
  /** `req_…` to quote to support. */
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** Response headers, when there was a response. */
  readonly headers: Headers | undefined;

  constructor(init: TimbreErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details;
    this.headers = init.headers;
  }
}

/**
 * 401: missing, unknown, revoked or expired credential, or wrong login. Log in again or fix the key.
 *
 * @example
 * if (error instanceof AuthenticationError) return redirectToLogin();
 */
export class AuthenticationError extends TimbreError {
  override readonly name = "AuthenticationError";
}

/**
 * 403: the credential lacks `details.required_permission`. Use a key with more permissions.
 *
 * @example
 * if (error instanceof PermissionError) console.error(`needs ${error.requiredPermission}`);
 */
export class PermissionError extends TimbreError {
  override readonly name = "PermissionError";
  get requiredPermission(): string | undefined {
    const value = this.details?.["required_permission"];
    return typeof value === "string" ? value : undefined;
  }
}

/**
 * 404: unknown route, or a resource that is not visible to the caller.
 *
 * @example
 * const dte = await client.dte.retrieve(id).catch((e) => (e instanceof NotFoundError ? null : Promise.reject(e)));
 */
export class NotFoundError extends TimbreError {
  override readonly name = "NotFoundError";
}

/** One problem of a request body or parameter (`details.errors[]`). */
export interface ValidationIssue {
  /** Path such as `receptor.rut` or `items[0].precio`. */
  field: string;
  /** `required`, `format`, `invalid_rut`, `charset`, … */
  reason: string;
  message?: string;
  [key: string]: unknown;
}

/**
 * 400 / 422: fix the request. `issues` lists every problem the server found; `code` tells
 * `VALIDATION_ERROR` from `FOLIOS_EXHAUSTED`, `CERTIFICATE_REQUIRED`, `CAF_INVALID`, …
 *
 * @example
 * if (error instanceof ValidationError) for (const { field, reason } of error.issues) form.setError(field, reason);
 */
export class ValidationError extends TimbreError {
  override readonly name = "ValidationError";
  readonly issues: ValidationIssue[];
  constructor(init: TimbreErrorInit) {
    super(init);
    this.issues = issuesFrom(init.details);
  }
}

/**
 * 409: duplicate (email, business RUT, overlapping CAF) or the same idempotency key still running.
 *
 * @example
 * if (error instanceof ConflictError && error.code === "CONFLICT") console.log("already registered");
 */
export class ConflictError extends TimbreError {
  override readonly name = "ConflictError";
}

/**
 * 429: slow down; `retryAfter` is the number of seconds the server asked to wait.
 *
 * @example
 * if (error instanceof RateLimitError) await sleep((error.retryAfter ?? 60) * 1000);
 */
export class RateLimitError extends TimbreError {
  override readonly name = "RateLimitError";
  readonly retryAfter: number | undefined;
  constructor(init: TimbreErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/**
 * 5xx (or an answer that is not the API's envelope): the service failed; retry later.
 *
 * @example
 * if (error instanceof ApiError) report(`Timbre failed, request ${error.requestId}`);
 */
export class ApiError extends TimbreError {
  override readonly name = "ApiError";
}

/**
 * No answer: connection refused, DNS, reset, or the request timed out (`code: "TIMEOUT"`).
 *
 * @example
 * if (error instanceof ConnectionError && error.code === "TIMEOUT") console.warn("slow network");
 */
export class ConnectionError extends TimbreError {
  override readonly name = "ConnectionError";
}

/** The innermost cause's message (`connect ECONNREFUSED 127.0.0.1:9` rather than "fetch failed"). */
function rootReason(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++) current = current.cause;
  if (!(current instanceof Error)) return String(current);
  const code = (current as Error & { code?: unknown }).code;
  return typeof code === "string" && !current.message.includes(code) ? `${current.message} (${code})` : current.message;
}

/** The issues of a `VALIDATION_ERROR`'s details: `details.errors`, or the single `details.field` with its reason. */
export function issuesFrom(details: Record<string, unknown> | undefined): ValidationIssue[] {
  if (!details) return [];
  const errors = details["errors"];
  if (Array.isArray(errors)) {
    return errors.filter(isRecord).map((entry) => ({
      ...entry,
      field: typeof entry["field"] === "string" ? entry["field"] : "",
      reason: typeof entry["reason"] === "string" ? entry["reason"] : "",
    }));
  }
  const field = details["field"];
  const reason = details["reason"];
  if (typeof field === "string" && typeof reason === "string") return [{ field, reason }];
  return [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Seconds to wait from a `Retry-After` header (delta-seconds or HTTP date).
 *
 * @example
 * parseRetryAfter("3"); // 3
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Builds the error for a non-2xx answer. `body` is the parsed JSON body, if any.
 *
 * @example
 * const error = errorFromResponse(404, new Headers(), { success: false, error: { code: "NOT_FOUND", message: "…" } });
 * error instanceof NotFoundError; // true
 */
export function errorFromResponse(status: number, headers: Headers, body: unknown): TimbreError {
  const envelope = isRecord(body) && isRecord(body["error"]) ? body["error"] : undefined;
  const code = typeof envelope?.["code"] === "string" ? envelope["code"] : `HTTP_${status}`;
  const message =
    typeof envelope?.["message"] === "string" ? envelope["message"] : `Request failed with HTTP ${status}`;
  const details = isRecord(envelope?.["details"]) ? envelope["details"] : undefined;
  const requestId =
    (typeof envelope?.["request_id"] === "string" ? envelope["request_id"] : undefined) ??
    headers.get("request-id") ??
    undefined;
  const init: TimbreErrorInit = { code, message, status, requestId, details, headers };

  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 400 || status === 422) return new ValidationError(init);
  if (status === 429) {
    const fromDetails = details?.["retry_after"];
    const retryAfter =
      parseRetryAfter(headers.get("retry-after")) ?? (typeof fromDetails === "number" ? fromDetails : undefined);
    return new RateLimitError({ ...init, retryAfter });
  }
  if (status >= 500 || envelope === undefined) return new ApiError(init);
  return new TimbreError(init);
}

/**
 * Wraps a failure to get any answer (network error, timeout, abort).
 *
 * @example
 * throw connectionError(new TypeError("fetch failed"), false);
 */
export function connectionError(cause: unknown, timedOut: boolean, timeoutMs?: number): ConnectionError {
  const reason = rootReason(cause);
  return new ConnectionError({
    code: timedOut ? "TIMEOUT" : "CONNECTION_ERROR",
    message: timedOut
      ? `The request timed out${timeoutMs === undefined ? "" : ` after ${timeoutMs} ms`}.`
      : `Could not reach the Timbre API: ${reason}`,
    cause,
  });
}
