import { PagePromise } from "../pagination.js";
import type { RequestOptions } from "../transport.js";
import type { Numeration, NumerationCreateParams, NumerationListParams, WithLastResponse } from "../types.js";
import { Resource, seg } from "./resource.js";

/** Numerations (CAF folio ranges): `/businesses/{id}/numerations` and `/numerations/{id}`. */
export class Numerations extends Resource {
  /**
   * Lists the numerations of a business (`GET /businesses/{id}/numerations`).
   *
   * @example
   * const { data } = await client.businesses.numerations.list("biz_…", { tipo: 33, estado: "activa" });
   */
  list(businessId: string, params?: NumerationListParams, options?: RequestOptions): PagePromise<Numeration> {
    return PagePromise.from(params, (query) =>
      this.page<Numeration>(`businesses/${seg(businessId)}/numerations`, query, options),
    );
  }

  /**
   * Uploads a CAF received from the SII (`POST /businesses/{id}/numerations`). Bytes go as multipart
   * (the exact ISO-8859-1 bytes), text as JSON `{ caf_xml }`.
   *
   * @example
   * const numeration = await client.businesses.numerations.create("biz_…", { file: await readFile("caf-33.xml") });
   */
  create(businessId: string, params: NumerationCreateParams, options?: RequestOptions): Promise<WithLastResponse<Numeration>> {
    const path = `businesses/${seg(businessId)}/numerations`;
    if (typeof params.file === "string") {
      return this.call({ method: "POST", path, json: { caf_xml: params.file }, options });
    }
    const form = new FormData();
    form.append("file", new Blob([params.file as BlobPart], { type: "application/xml" }), params.filename ?? "caf.xml");
    return this.call({ method: "POST", path, body: form, options });
  }

  /**
   * One numeration by id (`GET /numerations/{id}`).
   *
   * @example
   * const numeration = await client.numerations.retrieve("caf_…");
   * console.log(numeration.disponibles);
   */
  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<Numeration>> {
    return this.call({ method: "GET", path: `numerations/${seg(id)}`, options });
  }
}
