import type { KeyObject } from "node:crypto";

/** `true` when both keys are RSA with the same modulus and exponent. */
export function sameRsaPublicKey(a: KeyObject, b: KeyObject): boolean {
  if (a.asymmetricKeyType !== "rsa" || b.asymmetricKeyType !== "rsa") return false;
  const ja = a.export({ format: "jwk" });
  const jb = b.export({ format: "jwk" });
  return ja.n === jb.n && ja.e === jb.e;
}
