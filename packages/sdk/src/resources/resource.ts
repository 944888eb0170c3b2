import type { ApiRequest, Query, RequestOptions, Transport } from "../transport.js";
import type { Page } from "../types.js";

/** Base of every resource class: holds the shared transport and unwraps answers. */
export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  /** Sends a request and returns the envelope's `data`. */
  protected async call<T>(request: ApiRequest): Promise<T> {
    return (await this.transport.request<T>(request)).data;
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
