/** What the server's thread and a certificate-reading thread (`certificate-worker.ts`) say to each other. */
import type { WireError } from "../../signing/signing-wire.js";
import type { LoadedCertificateInfo } from "./certificate-loader.js";

export interface CertificateRequest {
  bytes: Uint8Array;
  password: string;
}

/** A loaded certificate with its private key as PKCS#8 DER (a `KeyObject` is rebuilt on arrival). */
export type WireCertificate = Omit<LoadedCertificateInfo, "privateKey"> & { privateKeyDer: Uint8Array };

export type CertificateReply = { ok: true; certificate: WireCertificate } | { ok: false; error: WireError };
