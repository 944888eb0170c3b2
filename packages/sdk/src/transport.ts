/**
 * The HTTP transport: one API call through ky, whose `retry` retries transient failures (connection errors,
 * timeouts, 429, 5xx, 409 `IDEMPOTENCY_IN_PROGRESS`) with exponential back-off or the server's `Retry-After`. A POST
 * is retried only when it carries an idempotency key, and every try sends the same key: a retry never emits twice.
 */
import ky, { HTTPError, isHTTPError, isTimeoutError, type Options } from "ky";
import { ApiError, connectionError, errorFromResponse, parseRetryAfter } from "./errors.js";
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

/** Statuses worth another try; 409 only as `IDEMPOTENCY_IN_PROGRESS` (the same key still running). */
const TRANSIENT_STATUSES = [409, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];
const ALL_METHODS: NonNullable<Options["retry"] & object>["methods"] = ["get", "put", "delete", "post"];

/** Wait before retry number `retry` (0-based): exponential with "equal jitter" (half fixed, half random). */
export function backoffDelay(retry: number, initial: number, max: number): number {
  const exponential = Math.min(max, initial * 2 ** retry);
  return exponential / 2 + Math.random() * (exponential / 2);
}

/** Longest server-requested wait we honour before giving up on retrying (seconds). */
const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * ky's `shouldRetry`: false for answers that must not be retried (a 409 other than `IDEMPOTENCY_IN_PROGRESS`, a
 * `Retry-After` over a minute); undefined leaves the rest to ky (transient statuses, waiting `Retry-After`).
 */
async function worthRetrying(error: Error): Promise<boolean | undefined> {
  if (!isHTTPError(error)) return undefined;
  const response = error.response;
  if (response.status === 409) {
    const body = (await readJson(response.clone())) as { error?: { code?: string } } | undefined;
    if (body?.error?.code !== "IDEMPOTENCY_IN_PROGRESS") return false;
  }
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
  return retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_SECONDS ? false : undefined;
}

export class Transport {
  constructor(readonly config: TransportConfig) {}

  /** Sends one API call, retrying transient failures; returns the unwrapped envelope. */
  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const options = req.options ?? {};
    const timeout = options.timeout ?? this.config.timeout;
    const headers = this.headersFor(req, options);
    const retryable = req.method !== "POST" || headers["Idempotency-Key"] !== undefined;
    let response: Response;
    try {
      response = await ky(req.path.replace(/^\//, ""), {
        prefixUrl: this.config.baseUrl,
        method: req.method,
        headers,
        searchParams: cleanQuery(req.query),
        ...(req.body !== undefined ? { body: req.body } : req.json !== undefined ? { json: req.json } : {}),
        retry: {
          limit: retryable ? (options.maxRetries ?? this.config.maxRetries) : 0,
          methods: ALL_METHODS,
          statusCodes: TRANSIENT_STATUSES,
          afterStatusCodes: TRANSIENT_STATUSES,
          retryOnTimeout: true,
          delay: (attempt) => backoffDelay(attempt - 1, this.config.initialRetryDelay, this.config.maxRetryDelay),
          shouldRetry: ({ error }) => (options.signal?.aborted ? false : worthRetrying(error)),
        },
        timeout,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(this.config.fetch ? { fetch: this.config.fetch } : {}),
      });
    } catch (error) {
      if (error instanceof HTTPError) throw errorFromResponse(error.response.status, error.response.headers, await readJson(error.response));
      if (options.signal?.aborted) throw error;
      throw connectionError(error, isTimeoutError(error), timeout);
    }
    return this.parseSuccess<T>(response, req.expect ?? "json");
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
