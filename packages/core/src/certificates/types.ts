import type { KeyObject } from "node:crypto";

/** A person's signing certificate read from a PKCS#12 file. */
export interface LoadedCertificate {
  /** The RSA private key matching the certificate. */
  privateKey: KeyObject;
  /** The exact DER bytes of the end-entity certificate. */
  certificateDer: Uint8Array;
  certificatePem: string;
  /** Holder RUT from subjectAltName otherName 1.3.6.1.4.1.8321.1, canonical (`11111111-1`), or `null`. */
  holderRut: string | null;
  /** Subject CN (or the whole subject DN when there is no CN). */
  holderName: string;
  /** Issuer CN (or the issuer DN string when there is no CN). */
  issuer: string;
  /** Serial number, lower-case hex. */
  serial: string;
  validFrom: Date;
  validTo: Date;
  /** SHA-256 of the DER, lower-case hex without colons. */
  fingerprintSha256: string;
}

/** What may be shown/stored about a certificate (never the key). */
export interface CertificateSummary {
  holderRut: string | null;
  holderName: string;
  issuer: string;
  serial: string;
  validFrom: string;
  validTo: string;
  fingerprintSha256: string;
}

/** Raw material a PKCS#12 reader extracts: PKCS#8 private keys and X.509 certificates, as DER. */
export interface Pkcs12Contents {
  keys: Uint8Array[];
  certificates: Uint8Array[];
}
