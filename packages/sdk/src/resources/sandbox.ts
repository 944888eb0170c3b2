import type { RequestOptions, Transport } from "../transport.js";
import type { Numeration, SandboxNumerationCreateParams, WithLastResponse } from "../types.js";
import { Resource } from "./resource.js";

/** `/sandbox/numerations`: folios issued by the local SII sandbox (404 unless the server runs `SII_MODE=sandbox`). */
export class SandboxNumerations extends Resource {
  /**
   * Issues a sandbox CAF for the caller's business and stores it as a `test` numeration.
   *
   * @example
   * const numeration = await client.sandbox.numerations.create({ tipo: 33, cantidad: 100 });
   */
  create(params: SandboxNumerationCreateParams, options?: RequestOptions): Promise<WithLastResponse<Numeration>> {
    return this.call({ method: "POST", path: "sandbox/numerations", json: params, options });
  }
}

/** `client.sandbox`: endpoints that exist only against the SII sandbox. */
export class Sandbox {
  readonly numerations: SandboxNumerations;
  constructor(transport: Transport) {
    this.numerations = new SandboxNumerations(transport);
  }
}
