import { generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import forge from "node-forge";
import { parseRut } from "../rut/index.js";

/** Options of {@link generateTestCertificate}. */
export interface TestCertificateOptions {
  /** Holder RUT, written into subjectAltName otherName 1.3.6.1.4.1.8321.1 (and the DN serialNumber). */
  rut: string;
  /** Holder name (subject CN). */
  name: string;
  validFrom: Date;
  validTo: Date;
  password: string;
  /** Zero-pad the RUT in the otherName like some CAs do (`07880442-4`). Default false. */
  zeroPadRut?: boolean;
  /** PKCS#12 encryption: forge's `3des` (default, what most Chilean CAs issue) or `aes256`. */
  algorithm?: "3des" | "aes256";
  /**
   * Where the RUT is written: `both` (default, like the accredited CAs), `serialNumber` (the DN only) or `none` —
   * the last two are certificates the SII would not take, for tests of their refusal.
   */
  rutPlacement?: "both" | "serialNumber" | "none";
  /** RSA key size in bits. Default 2048 (the SII takes 1024–4096: others are for tests of their refusal). */
  modulusLength?: number;
}

/** A generated certificate and its PKCS#12. */
export interface TestCertificate {
  p12: Uint8Array;
  password: string;
  privateKey: KeyObject;
  certificateDer: Uint8Array;
  certificatePem: string;
}

const { asn1 } = forge;

function subjectAltNameWithRut(rut: string): forge.asn1.Asn1 {
  const oid = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer("1.3.6.1.4.1.8321.1").getBytes());
  const value = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.IA5STRING, false, rut)]);
  const otherName = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [oid, value]);
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [otherName]);
}

/**
 * Generates a self-signed RSA certificate (2048 bits unless asked) shaped like the ones Chilean accredited CAs issue (holder RUT in
 * subjectAltName otherName 1.3.6.1.4.1.8321.1 as an IA5String), packaged as a real PKCS#12 (3DES by default)
 * that `loadPkcs12` reads. Pure: no files; randomness from node:crypto.
 *
 * @example
 * const cert = await generateTestCertificate({ rut: "11111111-1", name: "JUAN PÉREZ", validFrom: new Date("2026-01-01"),
 *   validTo: new Date("2027-01-01"), password: "test1234" });
 * (await loadPkcs12(cert.p12, cert.password)).holderRut // "11111111-1"
 */
export async function generateTestCertificate(options: TestCertificateOptions): Promise<TestCertificate> {
  const rut = parseRut(options.rut);
  const rutText = `${options.zeroPadRut ? rut.body.padStart(8, "0") : rut.body}-${rut.dv}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: options.modulusLength ?? 2048, publicExponent: 65537 });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(options.validFrom.getTime());
  cert.validity.notAfter = new Date(options.validTo.getTime());
  // forge reads `valueTagClass` as the string tag (UTF8String = 12); its typings call it a Class.
  const utf8 = asn1.Type.UTF8 as unknown as forge.asn1.Class;
  const attrs: forge.pki.CertificateField[] = [
    { shortName: "C", value: "CL" },
    { shortName: "O", value: "Timbre Test" },
    { shortName: "CN", value: options.name, valueTagClass: utf8 },
  ];
  const placement = options.rutPlacement ?? "both";
  if (placement !== "none") attrs.push({ type: "2.5.4.5", value: `${rut.body}-${rut.dv}` });
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, keyEncipherment: true },
    ...(placement === "both" ? [{ id: "2.5.29.17", name: "subjectAltName", value: subjectAltNameWithRut(rutText) }] : []),
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());
  const certAsn1 = forge.pki.certificateToAsn1(cert);
  const certificateDer = Uint8Array.from(asn1.toDer(certAsn1).getBytes(), (c) => c.charCodeAt(0));
  const p12Asn1 = forge.pkcs12.toPkcs12Asn1(forgeKey, [cert], options.password, {
    algorithm: options.algorithm ?? "3des",
    friendlyName: options.name,
    generateLocalKeyId: true,
  });
  const p12 = Uint8Array.from(asn1.toDer(p12Asn1).getBytes(), (c) => c.charCodeAt(0));
  return { p12, password: options.password, privateKey, certificateDer, certificatePem: forge.pki.certificateToPem(cert) };
}
