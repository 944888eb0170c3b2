/**
 * Plain `fetch` client for `/v1` (the SDK's types, not its runtime: no ky in the bundle, and full control over
 * the session refresh, multipart uploads and binary downloads). Every call sends the session token and the
 * header's business (`X-Business-Id`) and environment (`X-Environment`). A 401 triggers one refresh + retry.
 */
import type { Pagination, Session } from "@timbre/sdk";
import { prefs } from "./prefs.js";
import { accessTokenNow, accessTokenStale, endSession, hasRefreshToken, refreshSession } from "./session.js";

export interface FieldError {
  field: string;
  reason: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** `details.errors` (or the single `details.field`) as a list. */
  get fieldErrors(): FieldError[] {
    const list = this.details.errors;
    if (Array.isArray(list)) {
      return list.flatMap((e: unknown) => {
        if (typeof e !== "object" || e === null) return [];
        const r = e as Record<string, unknown>;
        return typeof r.field === "string" ? [{ field: r.field, reason: String(r.reason ?? ""), message: String(r.message ?? "") }] : [];
      });
    }
    const field = this.details.field;
    return typeof field === "string" ? [{ field, reason: String(this.details.reason ?? ""), message: this.message }] : [];
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface CallOptions {
  query?: Query;
  body?: unknown;
  form?: FormData;
  /** Skip the session (register, login, refresh). */
  anonymous?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (`Idempotency-Key`). */
  headers?: Record<string, string>;
}

export const API_BASE = "/v1";

export function url(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== "") params.set(k, String(v));
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ""}`;
}

async function send(method: string, path: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (!options.anonymous) {
    const token = accessTokenNow();
    if (token) headers.authorization = `Bearer ${token}`;
    headers["x-environment"] = prefs.environment();
    const business = prefs.businessId();
    if (business) headers["x-business-id"] = business;
  }
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  try {
    return await fetch(url(path, options.query), { method, headers, body, signal: options.signal, credentials: "omit" });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "NETWORK", "No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.");
  }
}

const postRefresh = async (refreshToken: string): Promise<Session> =>
  (await call<Session>("POST", "/auth/refresh", { body: { refresh_token: refreshToken }, anonymous: true })).data;

/** Sends a request with the session, refreshing it first when stale and once more after a 401. */
export async function raw(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  if (!options.anonymous && accessTokenStale() && hasRefreshToken()) await refreshSession(postRefresh);
  let response = await send(method, path, options);
  if (response.status === 401 && !options.anonymous) {
    if (await refreshSession(postRefresh)) response = await send(method, path, options);
    if (response.status === 401) {
      endSession();
      throw await toError(response);
    }
  }
  if (!response.ok) throw await toError(response);
  return response;
}

/** The envelope's `data` (and `pagination`), with the response headers (`Idempotent-Replayed`). */
export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<{ data: T; pagination?: Pagination; headers: Headers }> {
  const response = await raw(method, path, options);
  const json = (await response.json().catch(() => null)) as { success?: boolean; data?: T; pagination?: Pagination } | null;
  if (!json || json.success !== true) throw new ApiError(response.status, "BAD_RESPONSE", "Respuesta inesperada del servidor.");
  return { data: json.data as T, pagination: json.pagination, headers: response.headers };
}

async function toError(response: Response): Promise<ApiError> {
  const json = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string; details?: Record<string, unknown>; request_id?: string } } | null;
  const e = json?.error;
  return new ApiError(
    response.status,
    e?.code ?? `HTTP_${response.status}`,
    e?.message ?? `Error ${response.status}`,
    e?.details ?? {},
    e?.request_id ?? response.headers.get("request-id"),
  );
}

export const api = {
  get: async <T>(path: string, query?: Query) => (await call<T>("GET", path, { query })).data,
  list: async <T>(path: string, query?: Query) => {
    const r = await call<T[]>("GET", path, { query });
    return { data: r.data, pagination: r.pagination ?? { page: 1, limit: r.data.length, total: r.data.length, total_pages: 1 } };
  },
  post: async <T>(path: string, body?: unknown, headers?: Record<string, string>) => (await call<T>("POST", path, { body: body ?? {}, headers })).data,
  put: async <T>(path: string, body: unknown) => (await call<T>("PUT", path, { body })).data,
  del: async <T>(path: string) => (await call<T>("DELETE", path)).data,
  upload: async <T>(path: string, form: FormData) => (await call<T>("POST", path, { form })).data,
  anonymous: async <T>(path: string, body: unknown) => (await call<T>("POST", path, { body, anonymous: true })).data,
  /** A binary download (PDF, XML) as a Blob. */
  blob: async (path: string, query?: Query) => (await raw("GET", path, { query })).blob(),
  /** A binary answer to a POST (the draft PDF of `/dte/preview?format=pdf`). */
  postBlob: async (path: string, body: unknown, query?: Query) => (await raw("POST", path, { body, query })).blob(),
};
