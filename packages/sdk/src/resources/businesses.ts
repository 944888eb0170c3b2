import { PagePromise } from "../pagination.js";
import type { RequestOptions, Transport } from "../transport.js";
import type {
  Business,
  BusinessCreateParams,
  BusinessUpdateParams,
  DeletedBusiness,
  ListParams,
  WebhookSecret, WithLastResponse } from "../types.js";
import { Certificates } from "./certificates.js";
import { Numerations } from "./numerations.js";
import { Resource, seg } from "./resource.js";

/** `/businesses`: the issuers (emisores) of the caller. */
export class Businesses extends Resource {
  /** Certificate upload: `client.businesses.certificate.upload({ id, file, password })`. */
  readonly certificate: Certificates;
  /** CAF numerations of a business. */
  readonly numerations: Numerations;

  constructor(transport: Transport) {
    super(transport);
    this.certificate = new Certificates(transport);
    this.numerations = new Numerations(transport);
  }

  /**
   * Lists businesses (`GET /businesses`); with an API key only the key's business.
   *
   * @example
   * for await (const business of client.businesses.list()) console.log(business.rut, business.razon_social);
   */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Business> {
    return PagePromise.from(params, (query) => this.page<Business>("businesses", query, options));
  }

  /**
   * Registers a business (`POST /businesses`). When `webhook_url` is given, the answer carries
   * `webhook_secret` this one time: store it.
   *
   * @example
   * const business = await client.businesses.create({
   *   rut: "76192083-9", razon_social: "Café Austral SpA", giro: "Cafetería", acteco: [561000],
   *   direccion: "Av. Providencia 1234", comuna: "Providencia",
   * });
   */
  create(params: BusinessCreateParams, options?: RequestOptions): Promise<WithLastResponse<Business>> {
    return this.call({ method: "POST", path: "businesses", json: params, options });
  }

  /**
   * One business (`GET /businesses/{id}`).
   *
   * @example
   * const business = await client.businesses.retrieve("biz_…");
   */
  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<Business>> {
    return this.call({ method: "GET", path: `businesses/${seg(id)}`, options });
  }

  /**
   * Partial update (`PUT /businesses/{id}`); the RUT cannot change.
   *
   * @example
   * await client.businesses.update("biz_…", { webhook_url: "https://example.cl/hooks/timbre" });
   */
  update(id: string, params: BusinessUpdateParams, options?: RequestOptions): Promise<WithLastResponse<Business>> {
    return this.call({ method: "PUT", path: `businesses/${seg(id)}`, json: params, options });
  }

  /**
   * Soft-deletes a business and revokes its keys (`DELETE /businesses/{id}`); documents are retained.
   *
   * @example
   * await client.businesses.del("biz_…");
   */
  del(id: string, options?: RequestOptions): Promise<WithLastResponse<DeletedBusiness>> {
    return this.call({ method: "DELETE", path: `businesses/${seg(id)}`, options });
  }

  /**
   * Rotates the webhook secret (`POST /businesses/{id}/webhook-secret`); for 24 h deliveries carry
   * signatures with both the old and the new secret.
   *
   * @example
   * const { webhook_secret } = await client.businesses.rotateWebhookSecret("biz_…");
   */
  rotateWebhookSecret(id: string, options?: RequestOptions): Promise<WithLastResponse<WebhookSecret>> {
    return this.call({ method: "POST", path: `businesses/${seg(id)}/webhook-secret`, options });
  }
}
