/**
 * Extracts `subjectPublicKeyInfo` from an X.509 certificate with a minimal DER walk. Needed because the SII's
 * own CAF-signing certificates (`100.cer`, `300.cer`) carry an invalid version field (4) that BoringSSL (Bun)
 * refuses, while their key is fine.
 */

interface Tlv {
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

function readTlv(der: Uint8Array, offset: number): Tlv {
  const tag = der[offset];
  let lenByte = der[offset + 1];
  if (tag === undefined || lenByte === undefined) throw new RangeError("DER truncated");
  let pos = offset + 2;
  let length = lenByte;
  if (lenByte & 0x80) {
    const count = lenByte & 0x7f;
    if (count === 0 || count > 4) throw new RangeError("unsupported DER length");
    length = 0;
    for (let i = 0; i < count; i++) {
      lenByte = der[pos++];
      if (lenByte === undefined) throw new RangeError("DER truncated");
      length = length * 256 + lenByte;
    }
  }
  const end = pos + length;
  if (end > der.length) throw new RangeError("DER truncated");
  return { tag, start: offset, contentStart: pos, end };
}

/** DER bytes of the certificate's `SubjectPublicKeyInfo` (throws `RangeError` on malformed input). */
export function spkiFromCertificateDer(der: Uint8Array): Uint8Array {
  const cert = readTlv(der, 0);
  const tbs = readTlv(der, cert.contentStart);
  if (cert.tag !== 0x30 || tbs.tag !== 0x30) throw new RangeError("not an X.509 certificate");
  let pos = tbs.contentStart;
  let field = readTlv(der, pos);
  if (field.tag === 0xa0) {
    pos = field.end;
    field = readTlv(der, pos);
  }
  // serialNumber, signature, issuer, validity, subject, then subjectPublicKeyInfo
  for (let i = 0; i < 5; i++) {
    pos = field.end;
    field = readTlv(der, pos);
  }
  if (field.tag !== 0x30) throw new RangeError("subjectPublicKeyInfo not found");
  return der.subarray(field.start, field.end);
}

/** DER of the first `-----BEGIN <label>-----` block of a PEM text, or `null`. */
export function pemBlock(pem: string, label: string): Uint8Array | null {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`).exec(pem);
  return m?.[1] ? new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ""), "base64")) : null;
}
