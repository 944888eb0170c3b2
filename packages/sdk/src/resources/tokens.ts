import { PagePromise } from "../pagination.js";
import type { RequestOptions } from "../transport.js";
import type { ApiKey, CreatedApiKey, ListParams, RevokedApiKey, TokenCreateParams, WithLastResponse } from "../types.js";
import { Resource, seg } from "./resource.js";

/** `/tokens`: API keys. */
export class Tokens extends Resource {
  /**
   * Lists keys (`GET /tokens`).
   *
   * @example
   * const { data } = await client.tokens.list();
   */
  list(params?: ListParams, options?: RequestOptions): PagePromise<ApiKey> {
    return PagePromise.from(params, (query) => this.page<ApiKey>("tokens", query, options));
  }

  /**
   * Creates a key (`POST /tokens`); `key` is in this answer only, once.
   *
   * @example
   * const { key } = await client.tokens.create({ name: "pos", permissions: ["dte:write", "dte:read"], business_id: "biz_…" });
   */
  create(params: TokenCreateParams, options?: RequestOptions): Promise<WithLastResponse<CreatedApiKey>> {
    return this.call({ method: "POST", path: "tokens", json: params, options });
  }

  /**
   * Revokes a key immediately (`DELETE /tokens/{id}`).
   *
   * @example
   * await client.tokens.revoke("key_…");
   */
  revoke(id: string, options?: RequestOptions): Promise<WithLastResponse<RevokedApiKey>> {
    return this.call({ method: "DELETE", path: `tokens/${seg(id)}`, options });
  }
}
