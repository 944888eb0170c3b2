import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { TimbreError } from "../errors/index.js";
import { encodeIso88591 } from "./latin1.js";
import { pemBlock, spkiFromCertificateDer } from "./spki-from-certificate.js";
import { sameRsaPublicKey } from "./same-rsa-key.js";
import type { AuthorityKey, Caf, EmbeddedCaf } from "./types.js";

/**
 * An {@link AuthorityKey} from a PEM public key (SPKI `BEGIN PUBLIC KEY`) or certificate (`BEGIN CERTIFICATE`,
 * e.g. the SII's `100.cer`/`300.cer` in PEM form; their expired validity is irrelevant). Reading the file is
 * the caller's business (core has no fs).
 *
 * @example
 * const sii = authorityKeyFromPem(300, await Bun.file("certs/300.pub.pem").text());
 */
export function authorityKeyFromPem(idk: number, pem: string): AuthorityKey {
  let publicKey: KeyObject;
  try {
    const certificate = pemBlock(pem, "CERTIFICATE");
    publicKey = certificate
      ? createPublicKey({ key: Buffer.from(spkiFromCertificateDer(certificate)), format: "der", type: "spki" })
      : createPublicKey(pem);
  } catch (cause) {
    throw new TimbreError("CAF_INVALID", `authority key ${idk} is not a PEM public key or certificate`, {
      details: { reason: "authority_key" },
      cause,
    });
  }
  if (publicKey.asymmetricKeyType !== "rsa") {
    throw new TimbreError("CAF_INVALID", `authority key ${idk} is not RSA`, { details: { reason: "authority_key" } });
  }
  return { idk, publicKey };
}

/**
 * Checks `FRMA`: RSA-SHA1 (PKCS#1 v1.5) over the flattened `DA` as ISO-8859-1 bytes, with the authority key
 * whose `idk` equals the CAF's `IDK`. Throws `CAF_INVALID` with details.reason `unknown_authority` (no key with
 * that IDK among `authorities` — e.g. a production CAF in the certification environment) or `signature`.
 *
 * @example
 * verifyCafSignature(parseEmbeddedCaf(dteXml), [authorityKeyFromPem(300, pem300)]);
 */
export function verifyCafSignature(caf: Pick<EmbeddedCaf, "daXml" | "frma" | "idk">, authorities: AuthorityKey[]): void {
  const authority = authorities.find((a) => a.idk === caf.idk);
  if (!authority) {
    throw new TimbreError("CAF_INVALID", `CAF signed by unknown authority IDK ${caf.idk}`, {
      details: { reason: "unknown_authority", idk: caf.idk, known: authorities.map((a) => a.idk) },
    });
  }
  let ok = false;
  try {
    ok = verify("sha1", encodeIso88591(caf.daXml), authority.publicKey, Buffer.from(caf.frma, "base64"));
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new TimbreError("CAF_INVALID", `FRMA does not verify with authority key IDK ${caf.idk}`, {
      details: { reason: "signature", idk: caf.idk },
    });
  }
}

/**
 * Full import check of a parsed CAF: `RSASK` (private key) must match `RSAPK` (reason `key_mismatch`), then the
 * authority's signature over `DA` (reasons `unknown_authority`, `signature`). Throws `CAF_INVALID`; returns
 * nothing when the CAF is genuine. RUT/tipo/environment checks against the business are the caller's.
 *
 * @example
 * const caf = parseCaf(xml);
 * verifyCaf(caf, [authorityKeyFromPem(100, pem100)]); // certification environment
 */
export function verifyCaf(caf: Caf, authorities: AuthorityKey[]): void {
  if (!sameRsaPublicKey(createPublicKey(caf.privateKey), caf.publicKey)) {
    throw new TimbreError("CAF_INVALID", "RSASK does not match DA/RSAPK", { details: { reason: "key_mismatch" } });
  }
  verifyCafSignature(caf, authorities);
}
