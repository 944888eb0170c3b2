/**
 * The API root as users write it — `http://host:3000`, `http://host:3000/`, `http://host:3000/v1`,
 * `http://host:3000/v1/` — made one form, ending in `/v1` with no trailing slash. The one place this is decided: the
 * client and the CLI both use it.
 */

/** The API version path every request goes under. */
const VERSION = "/v1";

/**
 * Normalises an API URL to its `/v1` root: trailing slashes dropped, `/v1` added when missing. A path prefix in
 * front (a proxy's `/timbre`) is kept; a query or fragment is dropped (the SDK adds its own).
 *
 * @example
 * normalizeApiUrl("http://localhost:3000");      // "http://localhost:3000/v1"
 * normalizeApiUrl("http://localhost:3000/v1/");  // "http://localhost:3000/v1"
 * normalizeApiUrl("https://erp.example.cl/timbre"); // "https://erp.example.cl/timbre/v1"
 */
export function normalizeApiUrl(url: string): string {
  const bare = url.trim().replace(/[?#].*$/, "").replace(/\/+$/, "");
  return bare.toLowerCase().endsWith(VERSION) ? bare.slice(0, -VERSION.length) + VERSION : `${bare}${VERSION}`;
}
