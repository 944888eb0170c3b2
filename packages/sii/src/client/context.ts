import type { KeyObject } from "node:crypto";
import type { SiiHosts } from "../protocol/endpoints.js";

/** Structurally core's `SigningIdentity` (signature/types.ts): the key and certificate that sign. */
export interface SigningIdentity {
  privateKey: KeyObject;
  certificateDer: Uint8Array;
}

/** The person whose certificate authenticates and sends (`holderRut` = RutEnvia / rutSender). */
export type SiiIdentity = SigningIdentity & { holderRut: string };

/** Signs the `getToken` seed document (core's `signSeed`). */
export type SeedSigner = (seed: string, identity: SigningIdentity) => string;

/** What every protocol call needs; built once by `SiiClient`. */
export interface ClientContext {
  hosts: SiiHosts;
  fetch: typeof fetch;
  requestMs: number;
  identity: SiiIdentity;
  signSeed: SeedSigner;
}
