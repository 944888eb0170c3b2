/**
 * The port through which businesses read PKCS#12 files; the default adapter is `@timbre/core/certificates`
 * (see default-certificate-loader.ts). Errors are core's `TimbreError("CERTIFICATE_INVALID", …, { details:
 * { reason } })`.
 */
import type { KeyObject } from "node:crypto";

export interface LoadedCertificateInfo {
  privateKey: KeyObject;
  certificatePem: string;
  holderRut: string | null;
  holderName: string;
  issuer: string;
  serial: string;
  validFrom: Date;
  validTo: Date;
  fingerprintSha256: string;
}

export interface CertificateLoader {
  load(bytes: Uint8Array, password: string): Promise<LoadedCertificateInfo>;
}
