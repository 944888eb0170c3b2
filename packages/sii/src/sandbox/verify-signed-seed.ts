import { X509Certificate } from "node:crypto";
import { DOMParser } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { certificateFromXml, holderRutFromCertificate } from "./certificate-holder.js";
import { certificateValidityErrors } from "./signer-validity.js";

const DSIG = "http://www.w3.org/2000/09/xmldsig#";

/** Outcome of checking a signed `getToken`: ESTADO `00` with the seed, or an SII error ESTADO and GLOSA. */
export type SignedSeedCheck =
  | { estado: "00"; seed: string; holderRut: string | null }
  | { estado: string; glosa: string };

/**
 * Checks the signed seed document the way GetTokenFromSeed does (authentication manual v1.9, §5–6): well formed
 * (`02`), a Signature (`04`), a certificate (`11`), a valid enveloped signature whose signed content contains the
 * seed (`05`), a Semilla (`06`), a certificate that has not expired at `now` (`-3` "Error en Autenticación", the
 * manual's §6.2.14 answer: the SII validates the certificate's validity too). Seed freshness is checked by the caller (`08`).
 *
 * @example
 * const check = verifySignedSeed(pszXml);
 * if (check.estado === "00") credentials.consumeSeed(check.seed);
 */
export function verifySignedSeed(xml: string, now: Date = new Date()): SignedSeedCheck {
  let doc: ReturnType<DOMParser["parseFromString"]>;
  try {
    doc = new DOMParser({ onError: (level, message) => { if (level !== "warning") throw new Error(message); } })
      .parseFromString(xml, "text/xml");
  } catch {
    return { estado: "02", glosa: "Error : XML INVALIDO (SAXException)" };
  }
  const root = doc.documentElement;
  if (root === null || root.localName !== "getToken") return { estado: "02", glosa: "Error : XML INVALIDO" };
  const semilla = root.getElementsByTagName("Semilla").item(0)?.textContent?.trim() ?? "";
  if (semilla === "") return { estado: "06", glosa: "Error : XML INVALIDO, ELEMENTO SEMILLA NO EXISTE" };
  const signatures = doc.getElementsByTagNameNS(DSIG, "Signature");
  const signature = signatures.item(0);
  if (signature === null || signatures.length !== 1) return { estado: "04", glosa: "Error : XML INVALIDO, ELEMENTO SIGNATURE NO EXISTE" };
  const der = certificateFromXml(xml);
  if (der === null) return { estado: "11", glosa: "Error : XML INVALIDO, ELEMENTO CERTIFICATE NO EXISTE" };
  let pem: string;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(der);
    pem = certificate.toString();
  } catch {
    return { estado: "11", glosa: "Error : CERTIFICADO INVALIDO" };
  }
  try {
    const signed = new SignedXml({ publicCert: pem });
    signed.loadSignature(signature as unknown as Node);
    if (!signed.checkSignature(xml)) throw new Error("invalid");
    const covered = signed.getSignedReferences().some((ref) => ref.includes(`<Semilla>${semilla}</Semilla>`));
    if (!covered) throw new Error("seed not signed");
  } catch {
    return { estado: "05", glosa: "Error : XML INVALIDO, FIRMA INVALIDA" };
  }
  if (certificateValidityErrors(certificate, now).length > 0) return { estado: "-3", glosa: "Error en Autenticación" };
  return { estado: "00", seed: semilla, holderRut: holderRutFromCertificate(der) };
}
