import type { CertificateSummary, LoadedCertificate } from "./types.js";

export type CertificateValidity = "valid" | "expired" | "not_yet_valid";

/**
 * Whether the certificate can sign at `now` (bounds inclusive).
 *
 * @example
 * checkCertificateValidity(cert, new Date("2026-01-15T12:00:00Z")) // "valid"
 */
export function checkCertificateValidity(cert: Pick<LoadedCertificate, "validFrom" | "validTo">, now: Date): CertificateValidity {
  if (now.getTime() < cert.validFrom.getTime()) return "not_yet_valid";
  if (now.getTime() > cert.validTo.getTime()) return "expired";
  return "valid";
}

/**
 * The public description of a loaded certificate (dates as ISO strings, no key, no DER).
 *
 * @example
 * certificateSummary(cert) // { holderRut: "11111111-1", holderName: "JUAN PÉREZ", issuer: "…", … }
 */
export function certificateSummary(cert: LoadedCertificate): CertificateSummary {
  return {
    holderRut: cert.holderRut,
    holderName: cert.holderName,
    issuer: cert.issuer,
    serial: cert.serial,
    validFrom: cert.validFrom.toISOString(),
    validTo: cert.validTo.toISOString(),
    fingerprintSha256: cert.fingerprintSha256,
  };
}
