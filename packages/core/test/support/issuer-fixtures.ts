/**
 * A throwaway signing identity and CAFs for the document tests that need nothing from outside the repository: one
 * authority key, one certificate and one CAF per tipo, made once per test file.
 */
import { issueCaf } from "../../src/caf/issue-caf.js";
import type { Caf } from "../../src/caf/types.js";
import type { Issuer } from "../../src/document/types.js";
import type { SigningIdentity } from "../../src/signature/types.js";
import { generateAuthorityKey } from "../../src/testing/generate-authority-key.js";
import { generateTestCertificate } from "../../src/testing/generate-test-certificate.js";

export const ISSUER_RUT = "76192083-9";
export const SENDER_RUT = "11111111-1";
export const TIMESTAMP = "2026-06-15T10:00:00";

export const ISSUER: Issuer = {
  rut: ISSUER_RUT, razonSocial: "SASCO SpA", giro: "Comercio exterior y comisiones", acteco: [726000],
  direccion: "Santa Cruz 1", comuna: "Santa Cruz", ciudad: "Santa Cruz",
};

const authority = generateAuthorityKey(999);
const cert = await generateTestCertificate({
  rut: SENDER_RUT, name: "Firmante", password: "x", validFrom: new Date("2026-01-01"), validTo: new Date("2027-01-01"),
});
export const identity: SigningIdentity = { privateKey: cert.privateKey, certificateDer: cert.certificateDer };

const cafs = new Map<number, Caf>();

/** A CAF for `tipo`, folios 1–100 of the issuer, the same one on every call. */
export function cafFor(tipo: number): Caf {
  const known = cafs.get(tipo);
  if (known) return known;
  const issued = issueCaf({ authority, rut: ISSUER_RUT, razonSocial: ISSUER.razonSocial, tipo, desde: 1, hasta: 100, fechaAutorizacion: "2026-01-15" }).caf;
  cafs.set(tipo, issued);
  return issued;
}
