/**
 * A small BER reader for the PKCS#12 envelope: definite and indefinite lengths, constructed strings (Windows and
 * Java exports use them where openssl writes DER). Enough to find a file's key-derivation parameters before any
 * library derives a key; it never decrypts.
 */

export interface BerNode {
  /** The identifier octet (class, constructed bit and tag number < 31). */
  tag: number;
  /** Content octets of a primitive element (empty for a constructed one). */
  content: Uint8Array;
  /** Elements inside a constructed one. */
  children: BerNode[];
  /** Offset just after the element in the buffer it was read from. */
  end: number;
}

/** Deeper nesting than any PKCS#12 needs: refused instead of recursing on hostile input. */
const MAX_DEPTH = 24;
/**
 * Elements in one read: a PKCS#12's envelope has a few dozen (certificates and keys stay opaque strings), while
 * megabytes of tiny elements would cost the calling thread time to walk.
 */
const MAX_ELEMENTS = 10_000;

/** Reads one element at `offset` (throws `RangeError` when truncated, too deep, too many elements or not BER). */
export function readBer(buf: Uint8Array, offset = 0, depth = 0, budget = { left: MAX_ELEMENTS }): BerNode {
  if (depth > MAX_DEPTH) throw new RangeError("BER nested too deep");
  if (--budget.left < 0) throw new RangeError("BER has too many elements");
  const tag = buf[offset];
  const first = buf[offset + 1];
  if (tag === undefined || first === undefined) throw new RangeError("BER truncated");
  if ((tag & 0x1f) === 0x1f) throw new RangeError("BER high tag numbers are not used in PKCS#12");
  const constructed = (tag & 0x20) !== 0;
  let pos = offset + 2;
  if (first === 0x80) {
    if (!constructed) throw new RangeError("BER indefinite length on a primitive element");
    const children: BerNode[] = [];
    for (;;) {
      if (buf[pos] === 0 && buf[pos + 1] === 0) return { tag, content: new Uint8Array(0), children, end: pos + 2 };
      const child = readBer(buf, pos, depth + 1, budget);
      children.push(child);
      pos = child.end;
    }
  }
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 4) throw new RangeError("BER length too long");
    length = 0;
    for (let i = 0; i < count; i++) {
      const b = buf[pos++];
      if (b === undefined) throw new RangeError("BER truncated");
      length = length * 256 + b;
    }
  }
  const end = pos + length;
  if (end > buf.length) throw new RangeError("BER truncated");
  if (!constructed) return { tag, content: buf.subarray(pos, end), children: [], end };
  const children: BerNode[] = [];
  while (pos < end) {
    const child = readBer(buf.subarray(0, end), pos, depth + 1, budget);
    children.push(child);
    pos = child.end;
  }
  return { tag, content: new Uint8Array(0), children, end };
}

/** The octets of an OCTET STRING, primitive or constructed (its segments joined). */
export function octetsOf(node: BerNode): Uint8Array {
  return node.children.length === 0 ? node.content : concatBytes(...node.children.map(octetsOf));
}

/** Byte arrays one after the other. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A non-negative INTEGER's value; `Infinity` beyond 2^48 (more than any count this reader is asked about),
 * `NaN` when negative or empty.
 */
export function unsignedIntegerOf(node: BerNode): number {
  const bytes = node.content;
  if (node.tag !== 0x02 || bytes.length === 0 || (bytes[0] ?? 0) & 0x80) return Number.NaN;
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  if (bytes.length - start > 6) return Number.POSITIVE_INFINITY;
  let value = 0;
  for (let i = start; i < bytes.length; i++) value = value * 256 + (bytes[i] ?? 0);
  return value;
}
