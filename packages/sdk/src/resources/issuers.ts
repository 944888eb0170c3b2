import type { RequestOptions } from "../transport.js";
import type { Issuer, WithLastResponse } from "../types.js";
import { Resource, seg } from "./resource.js";

/** `/issuers`: the SII's list of authorised electronic issuers (API.md §14). */
export class Issuers extends Resource {
  /**
   * One issuer of the SII's list for the key's environment (`GET /issuers/{rut}`): razón social, resolution and
   * *correo de intercambio*, e.g. to fill a receiver. `NotFoundError` when the RUT is not listed, `ValidationError`
   * for a malformed RUT.
   *
   * @example
   * const { razon_social, correo_intercambio } = await client.issuers.retrieve("76192083-9");
   */
  retrieve(rut: string, options?: RequestOptions): Promise<WithLastResponse<Issuer>> {
    return this.call({ method: "GET", path: `issuers/${seg(rut)}`, options });
  }
}
