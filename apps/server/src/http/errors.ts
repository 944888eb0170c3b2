/**
 * The one place mapping error codes to HTTP status (API.md §3) and building the error envelope.
 * Handlers and services throw `ApiError` (or core's `TimbreError`); `toErrorResponse` turns anything thrown
 * into `{ status, body }`. The field is `apiCode`, not `code`, so that Elysia's own `error.code` handling
 * never mistakes our errors for its own.
 */
import { TimbreError, ValidationError as CoreValidationError } from "@timbre/core/errors";
import type { ValidationIssue } from "@timbre/core/errors";
import { isDatabaseUnavailable } from "../db/pg-errors.js";

export const HTTP_STATUS = {
  INVALID_JSON: 400,
  INVALID_PARAMETER: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  CERTIFICATE_REQUIRED: 422,
  CERTIFICATE_INVALID: 422,
  CAF_INVALID: 422,
  FOLIOS_EXHAUSTED: 422,
  REFERENCE_INVALID: 422,
  BUSINESS_NOT_AUTHORIZED: 422,
  ENVELOPE_INVALID: 422,
  SII_REFUSED: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  UNAVAILABLE: 503,
} as const;

export type ApiErrorCode = keyof typeof HTTP_STATUS;

export class ApiError extends Error {
  readonly apiCode: ApiErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(apiCode: ApiErrorCode, message: string, details?: Record<string, unknown>, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ApiError";
    this.apiCode = apiCode;
    this.details = details;
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.apiCode];
  }
}

/** 422 VALIDATION_ERROR over every issue: `field`/`reason` repeat the first, `errors` lists them all. */
export function validationError(issues: ValidationIssue[]): ApiError {
  const first = issues[0];
  const errors = issues.map((i) => ({ field: i.path, reason: i.reason, message: i.message }));
  return new ApiError("VALIDATION_ERROR", first ? `${first.path}: ${first.message}` : "invalid request body", {
    field: first?.path,
    reason: first?.reason,
    errors,
  });
}

/** 400 INVALID_PARAMETER for a query or path parameter. */
export function invalidParameter(field: string, reason: string, message: string): ApiError {
  return new ApiError("INVALID_PARAMETER", message, { field, reason });
}

export const notFound = (what = "resource") => new ApiError("NOT_FOUND", `${what} not found`);

export interface ErrorBody {
  success: false;
  error: { code: ApiErrorCode; message: string; details?: Record<string, unknown>; request_id: string };
}

/** Turns anything thrown into an `ApiError` (unknown errors become INTERNAL_ERROR without their text). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof CoreValidationError) return validationError(error.issues);
  if (error instanceof TimbreError) return fromTimbreError(error);
  if (isDatabaseUnavailable(error)) return new ApiError("UNAVAILABLE", "the database is unavailable; retry shortly", { reason: "database" }, error);
  return new ApiError("INTERNAL_ERROR", "internal server error", undefined, error);
}

function fromTimbreError(error: TimbreError): ApiError {
  switch (error.code) {
    case "CERTIFICATE_INVALID":
    case "CAF_INVALID":
    case "FOLIOS_EXHAUSTED":
      return new ApiError(error.code, error.message, error.details, error);
    case "CAF_UNSAFE_XML":
      return new ApiError("CAF_INVALID", error.message, { ...error.details, reason: "unsafe_xml", construct: error.details?.reason }, error);
    case "INVALID_RUT":
      return new ApiError("VALIDATION_ERROR", error.message, { reason: "invalid_rut", ...error.details }, error);
    case "CHARSET":
      return new ApiError("VALIDATION_ERROR", error.message, { reason: "charset", ...error.details }, error);
    default:
      return new ApiError("INTERNAL_ERROR", "internal server error", undefined, error);
  }
}

/** The HTTP status and envelope for an error. */
export function toErrorResponse(error: unknown, requestId: string): { status: number; body: ErrorBody } {
  const apiError = toApiError(error);
  const body: ErrorBody = {
    success: false,
    error: { code: apiError.apiCode, message: apiError.message, request_id: requestId },
  };
  if (apiError.details !== undefined) body.error.details = apiError.details;
  return { status: apiError.httpStatus, body };
}
