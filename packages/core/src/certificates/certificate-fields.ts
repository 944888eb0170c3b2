import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import * as pkijs from "pkijs";
import { toArrayBuffer } from "./der.js";
import { rutFromSubjectAltName } from "./holder-rut.js";
import type { LoadedCertificate } from "./types.js";

const ATTRIBUTE_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.5": "serialNumber",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "1.2.840.113549.1.9.1": "emailAddress",
};

function attributeText(value: unknown): string {
  const block = (value as { valueBlock?: { value?: unknown } } | undefined)?.valueBlock;
  return typeof block?.value === "string" ? block.value : "";
}

function commonNameOrDn(name: pkijs.RelativeDistinguishedNames): string {
  const cn = name.typesAndValues.find((t) => t.type === "2.5.4.3");
  if (cn && attributeText(cn.value)) return attributeText(cn.value);
  return name.typesAndValues.map((t) => `${ATTRIBUTE_NAMES[t.type] ?? t.type}=${attributeText(t.value)}`).join(", ");
}

/**
 * The holder's RUT: the subjectAltName otherName 1.3.6.1.4.1.8321.1 that the accredited CAs write. A RUT in the
 * DN's serialNumber alone is not taken: the SII identifies the signer by the otherName (the sandbox does too,
 * CRT-3-19), so such a certificate could not send.
 */
function holderRutOf(cert: pkijs.Certificate): string | null {
  const san = cert.extensions?.find((e) => e.extnID === "2.5.29.17");
  return san ? rutFromSubjectAltName(san.extnValue.valueBlock.valueHexView) : null;
}

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

/** Fields of an X.509 certificate (any key type): what `LoadedCertificate` shows, plus the public key. */
export type CertificateFields = Omit<LoadedCertificate, "privateKey" | "certificateDer"> & { publicKey: KeyObject };

/** Reads the fields `LoadedCertificate` needs from certificate DER (throws on malformed DER). */
export function readCertificateFields(der: Uint8Array): CertificateFields {
  const cert = pkijs.Certificate.fromBER(toArrayBuffer(der));
  const spki = new Uint8Array(cert.subjectPublicKeyInfo.toSchema().toBER(false));
  const b64 = Buffer.from(der).toString("base64");
  return {
    holderRut: holderRutOf(cert),
    holderName: commonNameOrDn(cert.subject),
    issuer: commonNameOrDn(cert.issuer),
    serial: toHex(cert.serialNumber.valueBlock.valueHexView).replace(/^(00)+(?=.)/, ""),
    validFrom: cert.notBefore.value,
    validTo: cert.notAfter.value,
    fingerprintSha256: createHash("sha256").update(der).digest("hex"),
    certificatePem: `-----BEGIN CERTIFICATE-----\n${b64.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`,
    publicKey: createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" }),
  };
}
