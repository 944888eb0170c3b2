import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import * as pkijs from "pkijs";
import { sameRsaPublicKey } from "../caf/same-rsa-key.js";
import { TimbreError } from "../errors/index.js";
import { toArrayBuffer } from "./der.js";
import { checkPkcs12Derivations } from "./pkcs12-derivations.js";
import { readCertificateFields, type CertificateFields } from "./certificate-fields.js";
import { readPkcs12WithForge } from "./read-with-forge.js";
import { readPkcs12WithPkijs } from "./read-with-pkijs.js";
import type { LoadedCertificate, Pkcs12Contents } from "./types.js";

/** What the SII's accredited CAs issue: RSA keys of 1024 to 4096 bits (a larger key only costs signing time). */
export const RSA_KEY_BITS = { min: 1024, max: 4096 } as const;

function fail(reason: "format" | "password" | "no_rsa_key" | "key_size", message: string, details: Record<string, unknown> = {}, cause?: unknown): TimbreError {
  return new TimbreError("CERTIFICATE_INVALID", message, { details: { reason, ...details }, cause });
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function assertPfxStructure(bytes: Uint8Array): void {
  try {
    pkijs.PFX.fromBER(toArrayBuffer(bytes));
  } catch (cause) {
    throw fail("format", "not a PKCS#12 (.p12/.pfx) file, or a truncated one", { detail: message(cause) }, cause);
  }
}

function toKey(der: Uint8Array): KeyObject | null {
  try {
    return createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs8" });
  } catch {
    return null;
  }
}

function pick(contents: Pkcs12Contents): LoadedCertificate {
  const keys = contents.keys.map(toKey).filter((k): k is KeyObject => k !== null);
  const rsaKeys = keys.filter((k) => k.asymmetricKeyType === "rsa");
  if (rsaKeys.length === 0) {
    throw fail("no_rsa_key", "the PKCS#12 holds no RSA private key (the SII only accepts RSA)", {
      keyTypes: keys.map((k) => k.asymmetricKeyType ?? "unknown"),
    });
  }
  const certs: Array<{ der: Uint8Array; fields: CertificateFields }> = [];
  for (const der of contents.certificates) {
    try {
      certs.push({ der, fields: readCertificateFields(der) });
    } catch {
      // unreadable extra certificate (chain); ignore
    }
  }
  for (const privateKey of rsaKeys) {
    const publicKey = createPublicKey(privateKey);
    const match = certs.find((c) => sameRsaPublicKey(c.fields.publicKey, publicKey));
    if (match) {
      const bits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0;
      if (bits < RSA_KEY_BITS.min || bits > RSA_KEY_BITS.max) {
        throw fail("key_size", `the certificate's RSA key has ${bits} bits; the SII's accredited providers issue ${RSA_KEY_BITS.min} to ${RSA_KEY_BITS.max}`, {
          bits,
          min_bits: RSA_KEY_BITS.min,
          max_bits: RSA_KEY_BITS.max,
        });
      }
      const { publicKey: _unused, ...fields } = match.fields;
      return { privateKey, certificateDer: match.der, ...fields };
    }
  }
  throw fail("format", "no certificate in the PKCS#12 matches its RSA private key", { certificates: certs.length });
}

/**
 * Loads a PKCS#12 (.p12/.pfx): the RSA private key, the matching certificate (exact DER) and its fields
 * (holder RUT from subjectAltName otherName 1.3.6.1.4.1.8321.1, CN, issuer, serial, validity, SHA-256
 * fingerprint). Tries node-forge first (legacy RC2/3DES files), then pkijs (modern PBES2/AES files, non-ASCII
 * passwords). Throws `CERTIFICATE_INVALID` with details.reason `format` (not PKCS#12, truncated, no matching
 * certificate), `password` (wrong password), `no_rsa_key`, `key_size` (RSA outside {@link RSA_KEY_BITS}) or
 * `iterations` (a key derivation beyond `MAX_PKCS12_ITERATIONS`, refused before any is run, so a file cannot hold
 * the thread). Does not judge validity dates: see
 * {@link checkCertificateValidity}.
 *
 * @example
 * const cert = await loadPkcs12(p12Bytes, "secreto");
 * cert.holderRut // "11111111-1"
 */
export async function loadPkcs12(bytes: Uint8Array, password: string): Promise<LoadedCertificate> {
  assertPfxStructure(bytes);
  checkPkcs12Derivations(bytes);
  let forgeError: unknown;
  try {
    return pick(readPkcs12WithForge(bytes, password));
  } catch (e) {
    if (e instanceof TimbreError) throw e;
    forgeError = e;
  }
  let pkijsError: unknown;
  try {
    return pick(await readPkcs12WithPkijs(bytes, password));
  } catch (e) {
    if (e instanceof TimbreError) throw e;
    pkijsError = e;
  }
  const backends = { forge: message(forgeError), pkijs: message(pkijsError) };
  const looksLikePassword =
    /MAC could not be verified|Invalid password|wrong password|decrypt/i.test(backends.forge) ||
    /Integrity for the PKCS#12 data is broken|decrypt/i.test(backends.pkijs);
  if (looksLikePassword) throw fail("password", "wrong PKCS#12 password", { backends }, pkijsError);
  throw fail("format", "unreadable PKCS#12 file", { backends }, pkijsError);
}
