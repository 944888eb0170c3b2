/**
 * One error type for the whole domain, over a closed list of codes. Pure helpers throw it; the HTTP edge maps
 * `code` to a status in exactly one place (apps/server). Validation functions do not throw: they return
 * `ValidationIssue[]` so every problem is reported at once.
 */

/** Every code a core function may throw. Closed on purpose: callers branch on it. */
export const ERROR_CODES = [
  "INVALID_RUT",
  "VALIDATION_ERROR",
  "CHARSET",
  "CAF_INVALID",
  "CAF_UNSAFE_XML",
  "CERTIFICATE_INVALID",
  "SIGNATURE_INVALID",
  "XML_MALFORMED",
  "FOLIOS_EXHAUSTED",
  "INVALID_TRANSITION",
  "UNSUPPORTED_TIPO",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Reasons of a validation issue, the same vocabulary as the API contract (API.md §3). */
export type IssueReason =
  | "required"
  | "type"
  | "format"
  | "enum"
  | "minimum"
  | "maximum"
  | "min_length"
  | "max_length"
  | "min_items"
  | "max_items"
  | "invalid_rut"
  | "charset"
  | "not_allowed"
  | "date_in_future"
  | "unknown";

/** One problem with an input, addressed by a path such as `receptor.rut` or `items[0].precio`. */
export interface ValidationIssue {
  path: string;
  reason: IssueReason;
  message: string;
}

/**
 * The base error of `@timbre/core`.
 *
 * @example
 * try { parseRut("1-2") } catch (e) { if (e instanceof TimbreError && e.code === "INVALID_RUT") … }
 */
export class TimbreError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TimbreError";
    this.code = code;
    this.details = options.details;
  }
}

/**
 * Thrown by build functions when the input has issues; carries every issue found.
 *
 * @example
 * throw new ValidationError([{ path: "items", reason: "min_items", message: "at least one line" }]);
 */
export class ValidationError extends TimbreError {
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[]) {
    const first = issues[0];
    super("VALIDATION_ERROR", first ? `${first.path}: ${first.message}` : "invalid input", {
      details: { issues },
    });
    this.name = "ValidationError";
    this.issues = issues;
  }
}

/**
 * `true` when `value` is a `TimbreError` with the given code (or any code when omitted).
 *
 * @example
 * if (isTimbreError(err, "CAF_INVALID")) return reply422(err);
 */
export function isTimbreError(value: unknown, code?: ErrorCode): value is TimbreError {
  return value instanceof TimbreError && (code === undefined || value.code === code);
}
