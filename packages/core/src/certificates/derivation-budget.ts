/**
 * The key-derivation work a PKCS#12 may ask for. Its MAC and every encrypted part name their own iteration count,
 * and reading the file runs that many hash rounds on the calling thread: a byte patch claiming 2^31−1 rounds holds
 * a thread for hours. Counts are checked before anything is derived (`pkcs12-derivations.ts`, and the
 * PBE parameters inside encrypted parts as a reader reaches them).
 */
import { TimbreError } from "../errors/index.js";
import { readBer, unsignedIntegerOf, type BerNode } from "./ber.js";
import { decodeOid } from "./der.js";

/**
 * openssl writes 2048, Windows 2000, Java 10 000 (older JDKs 50 000), some CAs' tools 100 000: twice the highest
 * count real exports use.
 */
export const MAX_PKCS12_ITERATIONS = 200_000;

/** A file derives three times (MAC, certificates, key): three at the cap, or six at the highest real count. */
export const MAX_PKCS12_TOTAL_ITERATIONS = 3 * MAX_PKCS12_ITERATIONS;

const PBES2 = "1.2.840.113549.1.5.13";
const PBKDF2 = "1.2.840.113549.1.5.12";
/** PKCS#12 PBE (pbeWithSHAAnd…, 1.2.840.113549.1.12.1.1–6) and PKCS#5 PBES1 (pbeWithMD2/MD5/SHA1And…). */
const SALT_AND_COUNT = /^1\.2\.840\.113549\.1\.(12\.1\.[1-6]|5\.(1|3|4|6|10|11))$/;

function tooCostly(where: string, message: string, details: Record<string, unknown>): TimbreError {
  return new TimbreError("CERTIFICATE_INVALID", message, { details: { reason: "iterations", where, limit: MAX_PKCS12_ITERATIONS, ...details } });
}

/** Counts the derivations of one PKCS#12 read; throws `CERTIFICATE_INVALID` reason `iterations` beyond the limits. */
export class DerivationBudget {
  private spent = 0;

  /** Takes one derivation of `count` rounds (`where`: `mac`, `certificates`, `key`). */
  spend(count: number, where: string): void {
    if (!(count >= 1)) throw new TimbreError("CERTIFICATE_INVALID", `the PKCS#12 ${where} iteration count is not a positive integer`, { details: { reason: "format", where } });
    if (count > MAX_PKCS12_ITERATIONS) {
      const shown = Number.isFinite(count) ? count : "more than 2^48";
      throw tooCostly(where, `the PKCS#12 asks for ${shown} key-derivation iterations (${where}); real certificates use at most 100000, the limit is ${MAX_PKCS12_ITERATIONS}`, { iterations: Number.isFinite(count) ? count : null });
    }
    this.spent += count;
    if (this.spent > MAX_PKCS12_TOTAL_ITERATIONS) {
      throw tooCostly(where, `the PKCS#12 asks for more than ${MAX_PKCS12_TOTAL_ITERATIONS} key-derivation iterations in all`, { total_limit: MAX_PKCS12_TOTAL_ITERATIONS });
    }
  }

  /**
   * Takes the derivation an encryption AlgorithmIdentifier asks for (its OID and the BER of its parameters);
   * algorithms that derive nothing, or that no reader supports, take nothing.
   */
  spendFor(oid: string, params: Uint8Array | BerNode | undefined, where: string): void {
    const node = params instanceof Uint8Array ? readBer(params) : params;
    if (node === undefined) return;
    if (oid === PBES2) {
      const kdf = node.children[0];
      const kdfOid = kdf?.children[0];
      if (kdfOid?.tag !== 0x06 || decodeOid(kdfOid.content) !== PBKDF2) return;
      const count = kdf?.children[1]?.children[1];
      this.spend(count ? unsignedIntegerOf(count) : Number.NaN, where);
    } else if (SALT_AND_COUNT.test(oid)) {
      const count = node.children[1];
      this.spend(count ? unsignedIntegerOf(count) : Number.NaN, where);
    }
  }

  /** `spendFor` on an AlgorithmIdentifier element. */
  spendForAlgorithm(algorithm: BerNode | undefined, where: string): void {
    const oid = algorithm?.children[0];
    if (oid?.tag !== 0x06) throw new TimbreError("CERTIFICATE_INVALID", `the PKCS#12 ${where} encryption algorithm is unreadable`, { details: { reason: "format", where } });
    this.spendFor(decodeOid(oid.content), algorithm?.children[1], where);
  }
}
