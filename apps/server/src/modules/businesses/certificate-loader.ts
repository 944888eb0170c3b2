/**
 * The port through which businesses read PKCS#12 files; the default adapter is `@timbre/core/certificates`
 * (see default-certificate-loader.ts). Errors are core's `TimbreError("CERTIFICATE_INVALID", …, { details:
 * { reason } })`.
 */
import type { LoadedCertificate } from "@timbre/core/certificates";

/** What the server keeps from a loaded certificate: everything but the DER bytes (the PEM carries them). */
export type LoadedCertificateInfo = Omit<LoadedCertificate, "certificateDer">;

export interface CertificateLoader {
  load(bytes: Uint8Array, password: string): Promise<LoadedCertificateInfo>;
}
