/** PostgreSQL error classification across drivers (the driver error may be wrapped as `cause`). */
function pgCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (typeof e === "object" && "code" in e && typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = typeof e === "object" && e !== null && "cause" in e ? e.cause : undefined;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => pgCode(error) === "23505";

/** Driver and socket codes of a database that cannot be reached (postgres.js names its own; Node's are errno). */
const CONNECTION_CODES = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECTION_REFUSED",
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATEs of a server that will not take the statement now: connection exceptions, shutdown, no free slot. */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/**
 * The database could not be reached or dropped the connection (not a statement's fault): the request may be
 * retried once it is back. PGlite's equivalent is its client being closed under the request.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 5; depth++) {
    const code = "code" in e && typeof e.code === "string" ? e.code : undefined;
    if (code !== undefined && (CONNECTION_CODES.has(code) || code.startsWith("08") && code.length === 5 || UNAVAILABLE_STATES.has(code))) return true;
    if (e instanceof Error && /^PGlite is closed/.test(e.message)) return true;
    e = "cause" in e ? e.cause : undefined;
  }
  return false;
}
