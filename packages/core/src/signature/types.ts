import type { KeyObject } from "node:crypto";

/** The person's certificate and key that sign DTEs, envelopes and the token seed. */
export interface SigningIdentity {
  privateKey: KeyObject;
  /** DER bytes of the X.509 certificate (goes base64 into `X509Certificate`). */
  certificateDer: Uint8Array;
}
