/** A minimal DER reader: enough to walk subjectAltName without a full ASN.1 library. */

export interface Tlv {
  tag: number;
  /** Content bytes. */
  value: Uint8Array;
  /** Offset just after this element in the parent buffer. */
  end: number;
}

/** Reads one TLV at `offset` (throws `RangeError` when truncated or not definite-length DER). */
export function readTlv(buf: Uint8Array, offset: number): Tlv {
  const tag = buf[offset];
  const first = buf[offset + 1];
  if (tag === undefined || first === undefined) throw new RangeError("DER truncated");
  let pos = offset + 2;
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4) throw new RangeError("unsupported DER length");
    length = 0;
    for (let i = 0; i < count; i++) {
      const b = buf[pos++];
      if (b === undefined) throw new RangeError("DER truncated");
      length = length * 256 + b;
    }
  }
  if (pos + length > buf.length) throw new RangeError("DER truncated");
  return { tag, value: buf.subarray(pos, pos + length), end: pos + length };
}

/** All TLVs inside a constructed value. */
export function readChildren(value: Uint8Array): Tlv[] {
  const out: Tlv[] = [];
  for (let pos = 0; pos < value.length; ) {
    const tlv = readTlv(value, pos);
    out.push(tlv);
    pos = tlv.end;
  }
  return out;
}

/** Dotted form of an OBJECT IDENTIFIER's content bytes. */
export function decodeOid(value: Uint8Array): string {
  const parts: number[] = [];
  let acc = 0;
  for (const b of value) {
    acc = acc * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      parts.push(acc);
      acc = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join(".");
}

/** Text of a DER string (UTF8String, IA5String, PrintableString, BMPString, T61/Visible as Latin-1). */
export function decodeDerString(tlv: Tlv): string | null {
  switch (tlv.tag) {
    case 0x0c:
      return new TextDecoder("utf-8").decode(tlv.value);
    case 0x1e: {
      let s = "";
      for (let i = 0; i + 1 < tlv.value.length; i += 2) s += String.fromCharCode(((tlv.value[i] ?? 0) << 8) | (tlv.value[i + 1] ?? 0));
      return s;
    }
    case 0x13:
    case 0x14:
    case 0x16:
    case 0x1a:
      return String.fromCharCode(...tlv.value);
    default:
      return null;
  }
}

/** A copy of the bytes in a fresh `ArrayBuffer` (what WebCrypto/asn1js typings want). */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}
