/** Byte patches of a PKCS#12 for tests of hostile files (DER re-encoded where lengths change). */
import { concatBytes } from "../certificates/ber.js";

function tlv(tag: number, value: Uint8Array): Uint8Array {
  const n = value.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  const out = new Uint8Array(1 + length.length + n);
  out.set([tag, ...length]);
  out.set(value, 1 + length.length);
  return out;
}

/** The elements inside DER content: tag and content of each. */
function children(value: Uint8Array): Array<{ tag: number; value: Uint8Array }> {
  const out: Array<{ tag: number; value: Uint8Array }> = [];
  for (let pos = 0; pos < value.length; ) {
    const tag = value[pos] ?? 0;
    let length = value[pos + 1] ?? 0;
    let start = pos + 2;
    if (length & 0x80) {
      const count = length & 0x7f;
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + (value[start + i] ?? 0);
      start += count;
    }
    out.push({ tag, value: value.subarray(start, start + length) });
    pos = start + length;
  }
  return out;
}


/** A non-negative INTEGER's DER. */
function integer(count: number): Uint8Array {
  const bytes: number[] = [];
  for (let n = count; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  if (bytes.length === 0 || (bytes[0] ?? 0) & 0x80) bytes.unshift(0);
  return tlv(0x02, new Uint8Array(bytes));
}

/**
 * A DER PKCS#12 (openssl's, or `generateTestCertificate`'s) with its MAC's iteration count replaced by `count`:
 * the byte patch that, at 2^31−1, held a reader for hours. The password is irrelevant to it.
 *
 * @example
 * const hostile = withMacIterations(cert.p12, 2 ** 31 - 1);
 */
export function withMacIterations(p12: Uint8Array, count: number): Uint8Array {
  const [pfx] = children(p12);
  const [version, authSafe, macData] = pfx ? children(pfx.value) : [];
  const [digest, salt] = macData ? children(macData.value) : [];
  if (!version || !authSafe || !digest || !salt) throw new Error("not a DER PKCS#12 with a MAC");
  const mac = tlv(0x30, concatBytes(tlv(digest.tag, digest.value), tlv(salt.tag, salt.value), integer(count)));
  return tlv(0x30, concatBytes(tlv(version.tag, version.value), tlv(authSafe.tag, authSafe.value), mac));
}
