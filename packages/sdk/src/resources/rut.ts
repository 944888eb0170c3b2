import type { RequestOptions } from "../transport.js";
import type { RutValidation, WithLastResponse } from "../types.js";
import { Resource } from "./resource.js";

/** `/rut`: RUT utilities. */
export class Rut extends Resource {
  /**
   * Checks a RUT's check digit and normalises it (`POST /rut/validate`); an invalid RUT is `valid: false`.
   *
   * @example
   * const { valid, formateado } = await client.rut.validate({ rut: "76.192.083-9" });
   */
  validate(params: { rut: string }, options?: RequestOptions): Promise<WithLastResponse<RutValidation>> {
    return this.call({ method: "POST", path: "rut/validate", json: params, options });
  }
}
