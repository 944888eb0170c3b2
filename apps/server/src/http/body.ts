/**
 * Request bodies: size limits on the actual bytes (1 MiB JSON, 5 MiB uploads → 413), JSON parsing (→ 400
 * INVALID_JSON), text the database can store (→ 422 reason `charset`), multipart for upload routes.
 */
import type { ValidationIssue } from "@timbre/core/errors";
import { ApiError, validationError } from "./errors.js";

export const JSON_LIMIT = 1024 * 1024;
export const UPLOAD_LIMIT = 5 * 1024 * 1024;

/** Routes that accept files (certificate, CAF, received envelope); everything else is JSON only. */
export function isUploadPath(path: string): boolean {
  return /\/businesses\/[^/]+\/(certificate|numerations)\/?$/.test(path) || /\/v1\/received\/?$/.test(path);
}

/** A non-JSON body of an upload route, handed to the route as is (it answers 415 when it cannot use it). */
export class RawBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
  ) {}
}

export function bodyLimit(path: string): number {
  return isUploadPath(path) ? UPLOAD_LIMIT : JSON_LIMIT;
}

/** Early refusal from `Content-Length`, before reading anything. */
export function checkDeclaredLength(headers: Headers, path: string): void {
  const declared = Number(headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > bodyLimit(path)) throw tooLarge(path);
}

/**
 * The body's bytes, read as they arrive and refused (413) as soon as they pass the route's limit — a body without
 * `Content-Length` is never held beyond it. The server's own cap (`SERVER_BODY_CAP`) is far above every route's
 * limit, so that every oversized body gets this error envelope rather than the HTTP server's bare 413.
 */
export async function readBody(request: Request, path: string): Promise<Uint8Array> {
  const limit = bodyLimit(path);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(path);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : new Uint8Array(Buffer.concat(chunks));
}

/** The HTTP server's cap on a request body: above it the connection is refused without our envelope. */
export const SERVER_BODY_CAP = 256 * 1024 * 1024;

function tooLarge(path: string): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", "request body too large", { limit_bytes: bodyLimit(path) });
}

export function isJsonType(contentType: string): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
}

/** Parses the bytes already read; returns the value Elysia validates. */
export async function parseBody(bytes: Uint8Array, contentType: string, path: string): Promise<unknown> {
  if (bytes.byteLength > bodyLimit(path)) throw tooLarge(path);
  const upload = isUploadPath(path);
  const json = contentType === "" || isJsonType(contentType);
  // An empty upload of a file type is an empty file (its route says what is wrong with it), not an empty JSON object.
  if (bytes.byteLength === 0 && (json || !upload || /^multipart\//i.test(contentType))) return {};
  if (json) return parseJson(bytes);
  if (upload && /^multipart\/form-data/i.test(contentType)) {
    try {
      return await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } }).formData();
    } catch (error) {
      throw new ApiError("INVALID_JSON", "malformed multipart body", undefined, error);
    }
  }
  if (upload) return new RawBody(bytes, contentType);
  throw new ApiError("INVALID_JSON", "this endpoint takes application/json");
}

function parseJson(bytes: Uint8Array): unknown {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new ApiError("INVALID_JSON", "the request body is not valid JSON", undefined, error);
  }
  const issues = unstorableText(value);
  if (issues.length > 0) throw validationError(issues);
  return value;
}

/** U+0000 (PostgreSQL text cannot hold it) or a lone UTF-16 surrogate (not representable in UTF-8). */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Every string (value or key) of a parsed JSON body that could not be stored as UTF-8 text, as `charset` issues
 * (API.md §1: text is never silently mangled). Checked for every JSON body, unknown fields included, because
 * some bodies are kept as sent.
 */
export function unstorableText(value: unknown, path = "", depth = 0, out: ValidationIssue[] = []): ValidationIssue[] {
  if (out.length >= 20 || depth > 200) return out;
  const here = path || "body";
  if (typeof value === "string") {
    if (UNSTORABLE.test(value)) out.push({ path: here, reason: "charset", message: "contains a NUL character or a lone surrogate" });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => unstorableText(item, `${path}[${i}]`, depth + 1, out));
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const child = path ? `${path}.${key}` : key;
      if (UNSTORABLE.test(key)) out.push({ path: here, reason: "charset", message: "a field name contains a NUL character or a lone surrogate" });
      else unstorableText(item, child, depth + 1, out);
    }
  }
  return out;
}
