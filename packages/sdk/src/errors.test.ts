import { describe, expect, test } from "bun:test";
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  errorFromResponse,
  NotFoundError,
  parseRetryAfter,
  PermissionError,
  RateLimitError,
  TimbreError,
  ValidationError,
} from "./errors.js";

const envelope = (code: string, details?: Record<string, unknown>) => ({
  success: false,
  error: { code, message: `${code}!`, details, request_id: "req_abc" },
});

describe("errorFromResponse", () => {
  const cases: Array<[number, string, new (...args: never[]) => TimbreError]> = [
    [401, "UNAUTHORIZED", AuthenticationError],
    [401, "INVALID_CREDENTIALS", AuthenticationError],
    [403, "FORBIDDEN", PermissionError],
    [404, "NOT_FOUND", NotFoundError],
    [409, "CONFLICT", ConflictError],
    [400, "INVALID_PARAMETER", ValidationError],
    [422, "FOLIOS_EXHAUSTED", ValidationError],
    [429, "RATE_LIMITED", RateLimitError],
    [500, "INTERNAL_ERROR", ApiError],
    [503, "UNAVAILABLE", ApiError],
    [413, "PAYLOAD_TOO_LARGE", TimbreError],
  ];
  for (const [status, code, kind] of cases) {
    test(`${status} ${code} → ${kind.name}`, () => {
      const error = errorFromResponse(status, new Headers(), envelope(code));
      expect(error).toBeInstanceOf(kind);
      expect(error).toBeInstanceOf(TimbreError);
      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
      expect(error.requestId).toBe("req_abc");
      expect(error.message).toBe(`${code}!`);
    });
  }

  test("validation issues come from details.errors", () => {
    const details = {
      field: "receptor.rut",
      reason: "required",
      errors: [
        { field: "receptor.rut", reason: "required" },
        { field: "items[0].precio", reason: "minimum", message: "≥ 0" },
      ],
    };
    const error = errorFromResponse(422, new Headers(), envelope("VALIDATION_ERROR", details));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual(details.errors);
  });

  test("a single field/reason becomes one issue", () => {
    const error = errorFromResponse(400, new Headers(), envelope("INVALID_PARAMETER", { field: "limit", reason: "maximum" }));
    expect((error as ValidationError).issues).toEqual([{ field: "limit", reason: "maximum" }]);
  });

  test("permission error exposes the missing permission", () => {
    const error = errorFromResponse(403, new Headers(), envelope("FORBIDDEN", { required_permission: "dte:write" }));
    expect((error as PermissionError).requiredPermission).toBe("dte:write");
  });

  test("rate limit reads Retry-After, falling back to details.retry_after", () => {
    const fromHeader = errorFromResponse(429, new Headers({ "retry-after": "12" }), envelope("RATE_LIMITED"));
    expect((fromHeader as RateLimitError).retryAfter).toBe(12);
    const fromBody = errorFromResponse(429, new Headers(), envelope("RATE_LIMITED", { retry_after: 4 }));
    expect((fromBody as RateLimitError).retryAfter).toBe(4);
  });

  test("a body that is not the envelope still maps by status, with the header request id", () => {
    const error = errorFromResponse(502, new Headers({ "request-id": "req_hdr" }), "Bad gateway");
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe("HTTP_502");
    expect(error.requestId).toBe("req_hdr");
  });
});

describe("parseRetryAfter", () => {
  test("seconds and HTTP dates", () => {
    expect(parseRetryAfter("5")).toBe(5);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    const now = Date.parse("2026-11-22T14:00:00Z");
    expect(parseRetryAfter("Sun, 22 Nov 2026 14:00:30 GMT", now)).toBe(30);
  });
});
