/** `KeyInfo` of the SII profile: `KeyValue/RSAKeyValue(Modulus, Exponent)` then `X509Data/X509Certificate`. */
import { TimbreError } from "../errors/index.js";
import type { SigningIdentity } from "./types.js";

const cache = new WeakMap<SigningIdentity, string>();

const fromBase64Url = (value: string): string => Buffer.from(value, "base64url").toString("base64");

/**
 * The `<KeyInfo>…</KeyInfo>` text (identical in file and canonical form: base64 only), cached per identity.
 *
 * @example
 * renderKeyInfo(identity) // "<KeyInfo><KeyValue><RSAKeyValue><Modulus>…</Modulus><Exponent>AQAB</Exponent>…"
 */
export function renderKeyInfo(identity: SigningIdentity): string {
  const cached = cache.get(identity);
  if (cached !== undefined) return cached;
  const jwk = identity.privateKey.export({ format: "jwk" });
  if (jwk.kty !== "RSA" || typeof jwk.n !== "string" || typeof jwk.e !== "string") {
    throw new TimbreError("CERTIFICATE_INVALID", "the signing key must be RSA", { details: { reason: "no_rsa_key" } });
  }
  const certificate = Buffer.from(identity.certificateDer.buffer, identity.certificateDer.byteOffset, identity.certificateDer.byteLength);
  const xml =
    `<KeyInfo><KeyValue><RSAKeyValue><Modulus>${fromBase64Url(jwk.n)}</Modulus><Exponent>${fromBase64Url(jwk.e)}</Exponent>` +
    `</RSAKeyValue></KeyValue><X509Data><X509Certificate>${certificate.toString("base64")}</X509Certificate></X509Data></KeyInfo>`;
  cache.set(identity, xml);
  return xml;
}
