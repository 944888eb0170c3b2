/**
 * The HTTP transport: one request with our own retry loop on top of ky (whose retry is disabled, so
 * POSTs are retried only when they carry an idempotency key, and that key is the same on every try).
 */
import ky, { isTimeoutError } from "ky";
import { ApiError, connectionError, errorFromResponse, parseRetryAfter, TimbreError } from "./errors.js";
import type { Environment, Pagination } from "./types.js";

/** Per-call options, the last argument of every resource method. */
export interface RequestOptions {
  /**
   * `Idempotency-Key` for a POST. By default the SDK generates one per call (and reuses it on its
   * retries); pass your own to make a call safe to repeat across processes, or `false` to send none
   * (the POST is then never retried).
   */
  idempotencyKey?: string | false;
  /** Per-attempt timeout in milliseconds (overrides the client's). */
  timeout?: number;
  /** Retries after the first attempt (overrides the client's). */
  maxRetries?: number;
  /** Business for session credentials (`X-Business-Id`), overrides the client's. */
  businessId?: string;
  /** Environment for session credentials (`X-Environment`), overrides the client's. */
  environment?: Environment;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface TransportConfig {
  baseUrl: string;
  apiKey?: string | undefined;
  accessToken?: string | undefined;
  businessId?: string | undefined;
  environment?: Environment | undefined;
  timeout: number;
  maxRetries: number;
  /** First back-off delay in ms; doubles each retry, with jitter, capped at `maxRetryDelay`. */
  initialRetryDelay: number;
  maxRetryDelay: number;
  fetch?: typeof fetch | undefined;
  userAgent?: string | undefined;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface ApiRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  query?: Query | undefined;
  /** JSON value, or a ready body (FormData for multipart). */
  json?: unknown;
  body?: FormData | undefined;
  /** `bytes` for PDF/XML downloads. */
  expect?: "json" | "bytes";
  /** POSTs that must never carry an idempotency key (auth: no credential scope, rotating tokens). */
  noIdempotency?: boolean;
  options?: RequestOptions | undefined;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
  pagination?: Pagination;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** Wait before retry number `retry` (0-based): exponential with "equal jitter" (half fixed, half random). */
export function backoffDelay(retry: number, initial: number, max: number): number {
  const exponential = Math.min(max, initial * 2 ** retry);
  return exponential / 2 + Math.random() * (exponential / 2);
}

/** Longest server-requested wait we honour before giving up on retrying (seconds). */
const MAX_RETRY_AFTER_SECONDS = 60;

export class Transport {
  constructor(readonly config: TransportConfig) {}

  /** Sends one API call, retrying transient failures; returns the unwrapped envelope. */
  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const options = req.options ?? {};
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const timeout = options.timeout ?? this.config.timeout;
    const headers = this.headersFor(req, options);
    const idempotencyKey = headers["Idempotency-Key"];
    const retryable = req.method !== "POST" || idempotencyKey !== undefined;

    for (let attempt = 0; ; attempt++) {
      const canRetry = retryable && attempt < maxRetries;
      let response: Response;
      try {
        response = await ky(req.path.replace(/^\//, ""), {
          prefixUrl: this.config.baseUrl,
          method: req.method,
          headers,
          searchParams: cleanQuery(req.query),
          ...(req.body !== undefined ? { body: req.body } : req.json !== undefined ? { json: req.json } : {}),
          retry: 0,
          throwHttpErrors: false,
          timeout,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(this.config.fetch ? { fetch: this.config.fetch } : {}),
        });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (!canRetry) throw connectionError(error, isTimeoutError(error), timeout);
        await sleep(this.delay(attempt), options.signal);
        continue;
      }

      if (response.ok) return this.parseSuccess<T>(response, req.expect ?? "json");

      const body = await readJson(response);
      const error = errorFromResponse(response.status, response.headers, body);
      const wait = canRetry ? this.retryWait(response, error, attempt) : undefined;
      if (wait === undefined) throw error;
      await sleep(wait, options.signal);
    }
  }

  /** Milliseconds to wait before retrying this failed answer, or undefined when it must not be retried. */
  private retryWait(response: Response, error: TimbreError, attempt: number): number | undefined {
    const status = response.status;
    const transient =
      status === 429 || status >= 500 || (status === 409 && error.code === "IDEMPOTENCY_IN_PROGRESS");
    if (!transient) return undefined;
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    if (retryAfter !== undefined) {
      return retryAfter > MAX_RETRY_AFTER_SECONDS ? undefined : retryAfter * 1000;
    }
    return this.delay(attempt);
  }

  private delay(attempt: number): number {
    return backoffDelay(attempt, this.config.initialRetryDelay, this.config.maxRetryDelay);
  }

  private headersFor(req: ApiRequest, options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = { Accept: req.expect === "bytes" ? "*/*" : "application/json" };
    if (this.config.userAgent) headers["User-Agent"] = this.config.userAgent;
    if (this.config.apiKey) headers["X-API-Key"] = this.config.apiKey;
    else if (this.config.accessToken) headers["Authorization"] = `Bearer ${this.config.accessToken}`;
    const businessId = options.businessId ?? this.config.businessId;
    const environment = options.environment ?? this.config.environment;
    if (businessId) headers["X-Business-Id"] = businessId;
    if (environment) headers["X-Environment"] = environment;
    if (req.method === "POST" && !req.noIdempotency && options.idempotencyKey !== false) {
      headers["Idempotency-Key"] = options.idempotencyKey ?? crypto.randomUUID();
    }
    return { ...headers, ...options.headers };
  }

  private async parseSuccess<T>(response: Response, expect: "json" | "bytes"): Promise<ApiResponse<T>> {
    const base = { status: response.status, headers: response.headers };
    if (expect === "bytes") {
      return { ...base, data: new Uint8Array(await response.arrayBuffer()) as T };
    }
    const body = await readJson(response);
    if (!isEnvelope(body)) {
      throw new ApiError({
        code: "INVALID_RESPONSE",
        message: `Expected a Timbre API JSON envelope, got HTTP ${response.status} with another body.`,
        status: response.status,
        requestId: response.headers.get("request-id") ?? undefined,
        headers: response.headers,
      });
    }
    return {
      ...base,
      data: body.data as T,
      ...(body.pagination ? { pagination: body.pagination } : {}),
    };
  }
}

function isEnvelope(body: unknown): body is { success: true; data: unknown; pagination?: Pagination } {
  return typeof body === "object" && body !== null && "data" in body;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function cleanQuery(query: Query | undefined): Record<string, string> | undefined {
  if (!query) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) out[key] = String(value);
  }
  return out;
}
