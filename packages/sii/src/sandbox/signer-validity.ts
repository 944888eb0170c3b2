import { X509Certificate } from "node:crypto";
import { certificateFromXml } from "./certificate-holder.js";

/**
 * The envelope signer's certificate must not have expired when the SII receives the envelope (`now`): an expired certificate
 * cannot sign for the SII, which validates a signature and its certificate's validity (authentication manual v1.9
 * §2); the sandbox reports it as a signature error (STATUS 8 / RFR). Returns the problems, empty when fine.
 *
 * @example
 * signerValidityErrors(envelopeText, new Date()); // []
 */
export function signerValidityErrors(xml: string, now: Date): string[] {
  const der = certificateFromXml(xml, "last");
  if (der === null) return [];
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(der);
  } catch {
    return ["certificado del firmante ilegible"];
  }
  return certificateValidityErrors(certificate, now);
}

/**
 * Whether a certificate had expired at `at`; the problem in Spanish, as the sandbox reports it. (A certificate not yet
 * valid is not judged: sandboxes run with clocks set in the past to replay dates.)
 *
 * @example
 * certificateValidityErrors(new X509Certificate(der), new Date()); // []
 */
export function certificateValidityErrors(certificate: X509Certificate, at: Date): string[] {
  const to = new Date(certificate.validTo);
  return at > to ? [`certificado del firmante vencido el ${to.toISOString().slice(0, 10)}`] : [];
}
