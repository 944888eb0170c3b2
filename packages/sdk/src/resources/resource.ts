import type { ApiRequest, Query, RequestOptions, Transport } from "../transport.js";
import type { LastResponse, Page } from "../types.js";

/** Attaches the answer's `lastResponse` to an object `data`, not enumerable. */
function withLastResponse<T>(data: T, response: { status: number; headers: Headers }): T {
  if (typeof data !== "object" || data === null || ArrayBuffer.isView(data)) return data;
  const lastResponse: LastResponse = {
    requestId: response.headers.get("request-id") ?? undefined,
    idempotentReplayed: response.headers.get("idempotent-replayed") === "true",
    status: response.status,
    headers: response.headers,
  };
  return Object.defineProperty(data, "lastResponse", { value: lastResponse, enumerable: false });
}

/** Base of every resource class: holds the shared transport and unwraps answers. */
export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  /** Sends a request and returns the envelope's `data`, with its `lastResponse` when it is an object. */
  protected async call<T>(request: ApiRequest): Promise<T> {
    const response = await this.transport.request<T>(request);
    return withLastResponse(response.data, response);
  }

  /** GETs one page of a list. */
  protected async page<T>(path: string, query: object, options: RequestOptions | undefined): Promise<Page<T>> {
    const res = await this.transport.request<T[]>({ method: "GET", path, query: query as Query, options });
    const count = res.data.length;
    return { data: res.data, pagination: res.pagination ?? { page: 1, limit: count, total: count, total_pages: 1 } };
  }
}

/** Encodes a path segment (ids are safe already; this guards user input such as `../`). */
export const seg = (value: string | number): string => encodeURIComponent(String(value));
