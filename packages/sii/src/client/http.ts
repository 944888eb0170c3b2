import { decodeSiiBytes } from "../protocol/bytes.js";
import { SiiTransientError } from "./errors.js";

/** A complete HTTP answer (body fully read and decoded). */
export interface HttpAnswer {
  status: number;
  contentType: string | null;
  bytes: Uint8Array;
  text: string;
}

/** A request description for {@link sendHttp}. */
export interface HttpRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

/** Options of {@link sendHttp}. */
export interface SendHttpOptions {
  /**
   * Return HTTP 5xx answers instead of throwing, for callers that must read their body first: a JAX-WS service
   * answers a SOAP Fault with HTTP 500. The caller then throws the `http` error itself for other 5xx bodies.
   */
  readServerErrors?: boolean;
}

/**
 * Sends one request with a deadline covering the whole exchange (headers and body). Network failures and the
 * deadline become {@link SiiTransientError} (`network` / `timeout`), HTTP 5xx too (`http`, unless
 * `readServerErrors`); other statuses are returned for the caller to interpret.
 *
 * @example
 * const answer = await sendHttp(fetch, { method: "GET", url, headers: {} }, 10_000, "getSeed");
 */
export async function sendHttp(
  fetchFn: typeof fetch,
  request: HttpRequest,
  timeoutMs: number,
  operation: string,
  options: SendHttpOptions = {},
): Promise<HttpAnswer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal };
    if (request.body !== undefined) init.body = request.body as BodyInit;
    const response = await fetchFn(request.url, init);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const answer: HttpAnswer = {
      status: response.status,
      contentType: response.headers.get("content-type"),
      bytes,
      text: decodeSiiBytes(bytes),
    };
    if (answer.status >= 500 && options.readServerErrors !== true) {
      throw new SiiTransientError(operation, "http", `SII answered HTTP ${answer.status} to ${operation}`, {
        httpStatus: answer.status,
      });
    }
    return answer;
  } catch (error) {
    if (error instanceof SiiTransientError) throw error;
    if (timedOut) {
      throw new SiiTransientError(operation, "timeout", `SII did not answer ${operation} within ${timeoutMs} ms`, {
        cause: error,
      });
    }
    throw new SiiTransientError(operation, "network", `network error calling SII ${operation}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
