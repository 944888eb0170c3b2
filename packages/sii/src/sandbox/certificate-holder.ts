/** DER of OID 1.3.6.1.4.1.8321.1 (the SII's subjectAltName otherName carrying the holder's RUT). */
const SII_RUT_OID = [0x06, 0x08, 0x2b, 0x06, 0x01, 0x04, 0x01, 0xc1, 0x01, 0x01];
const STRING_TAGS = new Set([0x0c, 0x13, 0x16]); // UTF8String, PrintableString, IA5String

function findOid(der: Uint8Array): number {
  outer: for (let i = 0; i <= der.length - SII_RUT_OID.length; i++) {
    for (let j = 0; j < SII_RUT_OID.length; j++) if (der[i + j] !== SII_RUT_OID[j]) continue outer;
    return i + SII_RUT_OID.length;
  }
  return -1;
}

/**
 * The certificate holder's RUT from the SII otherName (OID 1.3.6.1.4.1.8321.1) of an X.509 DER, leading zeros
 * stripped (`07880442-4` → `7880442-4`); `null` when absent. A byte scan: the otherName value is the first
 * string after the OID.
 *
 * @example
 * holderRutFromCertificate(certificateDer); // "11111111-1"
 */
export function holderRutFromCertificate(der: Uint8Array): string | null {
  const start = findOid(der);
  if (start < 0) return null;
  for (let i = start; i < Math.min(der.length - 2, start + 16); i++) {
    const tag = der[i] ?? 0;
    const length = der[i + 1] ?? 0;
    if (!STRING_TAGS.has(tag) || length === 0 || length > 20) continue;
    const text = new TextDecoder("latin1").decode(der.subarray(i + 2, i + 2 + length)).trim().toUpperCase();
    const match = /^0*(\d{1,9})-?([\dK])$/.exec(text);
    if (match) return `${match[1]}-${match[2]}`;
  }
  return null;
}

/**
 * The base64 `X509Certificate` of the first (or the last, for an envelope's own signature) Signature in a text.
 *
 * @example
 * certificateFromXml(signedXml, "last");
 */
export function certificateFromXml(xml: string, which: "first" | "last" = "first"): Uint8Array | null {
  const all = [...xml.matchAll(/<(?:[\w.-]+:)?X509Certificate>([\s\S]*?)<\/(?:[\w.-]+:)?X509Certificate>/g)];
  const match = which === "first" ? all[0] : all[all.length - 1];
  if (match?.[1] === undefined) return null;
  return new Uint8Array(Buffer.from(match[1].replace(/\s+/g, ""), "base64"));
}
