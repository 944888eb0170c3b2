import { generateKeyPairSync, type KeyObject } from "node:crypto";

/** A CAF-signing authority key pair (the sandbox's stand-in for the SII). */
export interface TestAuthorityKey {
  idk: number;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/**
 * Generates an authority key like the SII's CAF-signing keys (RSA-512, e=65537). Use with `issueCaf` and
 * `verifyCaf`; never an IDK the SII uses (100, 300) outside tests that mean it.
 *
 * @example
 * const authority = generateAuthorityKey(999);
 * const { caf } = issueCaf({ authority, rut: "76192083-9", razonSocial: "SASCO SpA", tipo: 33, desde: 1,
 *   hasta: 50, fechaAutorizacion: "2026-01-15" });
 * verifyCaf(caf, [authority]);
 */
export function generateAuthorityKey(idk: number): TestAuthorityKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 512, publicExponent: 65537 });
  return { idk, privateKey, publicKey };
}
