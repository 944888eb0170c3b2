import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { TimbreError } from "../errors/index.js";
import { parseRut } from "../rut/index.js";
import { escapeText } from "./flatten.js";
import { encodeIso88591 } from "./latin1.js";
import { parseCaf } from "./parse-caf.js";
import type { Caf } from "./types.js";

/** Input of {@link issueCaf}. */
export interface IssueCafInput {
  /** The signing authority (the sandbox's fake SII): its IDK and private key. */
  authority: { idk: number; privateKey: KeyObject };
  /** Issuer RUT (`RE`), any common writing. */
  rut: string;
  /** `RS`; truncated to 40 characters like the SII does. Must be ISO-8859-1. */
  razonSocial: string;
  tipo: number;
  desde: number;
  hasta: number;
  /** `FA`, `YYYY-MM-DD`. */
  fechaAutorizacion: string;
  /** The CAF key pair; default a fresh RSA-512 e=3 pair like the SII's. */
  keyPair?: { privateKey: KeyObject; publicKey?: KeyObject };
}

function b64(b64url: string | undefined): string {
  return Buffer.from(b64url ?? "", "base64url").toString("base64");
}

function assertInput(input: IssueCafInput): void {
  const ints: Array<[string, number]> = [["tipo", input.tipo], ["desde", input.desde], ["hasta", input.hasta], ["idk", input.authority.idk]];
  for (const [name, value] of ints) {
    if (!Number.isSafeInteger(value) || value < (name === "idk" ? 0 : 1)) {
      throw new TimbreError("VALIDATION_ERROR", `${name} must be a positive integer`, { details: { field: name } });
    }
  }
  if (input.hasta < input.desde) throw new TimbreError("VALIDATION_ERROR", "hasta < desde", { details: { field: "hasta" } });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.fechaAutorizacion)) {
    throw new TimbreError("VALIDATION_ERROR", "fechaAutorizacion must be YYYY-MM-DD", { details: { field: "fechaAutorizacion" } });
  }
}

/**
 * Issues a CAF the way the SII does, signed by the given authority key (used by the local sandbox and tests):
 * builds `DA` (RE, RS, TD, RNG, FA, RSAPK, IDK), signs its flattened ISO-8859-1 form with RSA-SHA1 → `FRMA`, and
 * adds `RSASK` (PKCS#1 PEM) and `RSAPUBK` (SPKI PEM). Pure given the keys; without `keyPair` it generates an
 * RSA-512 e=3 pair. Returns the file text and its parsed form.
 *
 * @example
 * const authority = generateAuthorityKey(999); // from @timbre/core/testing
 * const { xml, caf } = issueCaf({ authority, rut: "76192083-9", razonSocial: "SASCO SpA", tipo: 33,
 *   desde: 1, hasta: 100, fechaAutorizacion: "2026-01-15" });
 * verifyCaf(parseCaf(xml), [{ idk: 999, publicKey: authority.publicKey }]);
 */
export function issueCaf(input: IssueCafInput): { xml: string; caf: Caf } {
  assertInput(input);
  const rut = parseRut(input.rut);
  const keyPair = input.keyPair ?? generateKeyPairSync("rsa", { modulusLength: 512, publicExponent: 3 });
  const publicKey = keyPair.publicKey ?? createPublicKey(keyPair.privateKey);
  const jwk = publicKey.export({ format: "jwk" });
  const razonSocial = escapeText(input.razonSocial.slice(0, 40));
  const da =
    `<DA><RE>${rut.body}-${rut.dv}</RE><RS>${razonSocial}</RS><TD>${input.tipo}</TD>` +
    `<RNG><D>${input.desde}</D><H>${input.hasta}</H></RNG><FA>${input.fechaAutorizacion}</FA>` +
    `<RSAPK><M>${b64(jwk.n)}</M><E>${b64(jwk.e)}</E></RSAPK><IDK>${input.authority.idk}</IDK></DA>`;
  const frma = sign("sha1", encodeIso88591(da), input.authority.privateKey).toString("base64");
  const rsask = keyPair.privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const rsapubk = publicKey.export({ type: "spki", format: "pem" }).toString();
  const xml =
    `<?xml version="1.0"?>\n<AUTORIZACION>\n<CAF version="1.0">${da}<FRMA algoritmo="SHA1withRSA">${frma}</FRMA></CAF>\n` +
    `<RSASK>${rsask}</RSASK>\n<RSAPUBK>${rsapubk}</RSAPUBK>\n</AUTORIZACION>\n`;
  return { xml, caf: parseCaf(xml) };
}
