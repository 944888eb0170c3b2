/**
 * The request-header limit (431), enforced here so that the answer is the API's error envelope. Bun's own parser
 * answers a bare 431 before any handler runs; `scripts/with-runtime.sh` (which `npm start` goes through) raises its
 * limit far above this one (`--max-http-header-size` via `BUN_OPTIONS`), so only headers beyond that reach it.
 */
import { maxHeaderSize } from "node:http";
import { ApiError } from "./errors.js";

/** The request line and headers together, as HTTP servers usually count them. */
export const HEADER_LIMIT_BYTES = 16 * 1024;

export function checkHeaderSize(request: Request, url: URL): void {
  let size = request.method.length + url.pathname.length + url.search.length + 11; // " HTTP/1.1\r\n"
  request.headers.forEach((value, name) => {
    size += name.length + value.length + 4; // ": " and CRLF
  });
  if (size > HEADER_LIMIT_BYTES) {
    throw new ApiError("HEADERS_TOO_LARGE", `the request line and headers exceed ${HEADER_LIMIT_BYTES} bytes`, { limit_bytes: HEADER_LIMIT_BYTES });
  }
}

/** False when the runtime's own parser would answer its bare 431 first (the process was not started as npm start does). */
export const runtimeHeaderLimitRaised = (): boolean => maxHeaderSize > HEADER_LIMIT_BYTES;
