/**
 * An envelope stored without the documents it carries. An EnvioDTE holds each of its DTEs byte for byte (their
 * signatures must verify when cut out), and every one of those bytes is already stored in `documents.xml`; keeping
 * them twice doubled the signed XML a business accumulates. So the envelope is stored as its *skeleton* — its bytes
 * with each document's bytes cut out — plus a *layout* saying which slice of which document goes back where.
 *
 * Exactness does not rest on knowing how the envelope was built: each document's slice (from its root element to
 * its last `>`) is searched for in the envelope's own bytes, in order, and only what was found is cut. When a slice is
 * not found the envelope is stored whole (`cutEnvelope` returns null); `joinEnvelope(cut)` gives back the very bytes.
 */

/** `[document id, offset in the skeleton, start, end of the slice in that document's XML]`, in envelope order. */
export type EnvelopeLayout = Array<[documentId: string, at: number, from: number, to: number]>;

export interface DocumentBytes {
  id: string;
  xml: Uint8Array;
}

const ROOT = Buffer.from("<DTE", "latin1");
const GT = 0x3e; // ">"

/** The range of a stored DTE that an envelope carries: its root element, without declaration or trailing space. */
function bodyRange(xml: Buffer): [number, number] | null {
  const from = xml.indexOf(ROOT);
  const to = xml.lastIndexOf(GT) + 1;
  return from >= 0 && to > from ? [from, to] : null;
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The envelope's skeleton and layout, or null when any document's bytes are not in it (store the envelope whole).
 * `documents` in the order they appear in the envelope.
 */
export function cutEnvelope(envelope: Uint8Array, documents: DocumentBytes[]): { skeleton: Uint8Array; layout: EnvelopeLayout } | null {
  const whole = asBuffer(envelope);
  const pieces: Buffer[] = [];
  const layout: EnvelopeLayout = [];
  let cursor = 0;
  let skeletonLength = 0;
  for (const doc of documents) {
    const xml = asBuffer(doc.xml);
    const range = bodyRange(xml);
    if (!range) return null;
    const [from, to] = range;
    const found = whole.indexOf(xml.subarray(from, to), cursor);
    if (found < 0) return null;
    const kept = whole.subarray(cursor, found);
    pieces.push(kept);
    skeletonLength += kept.length;
    layout.push([doc.id, skeletonLength, from, to]);
    cursor = found + (to - from);
  }
  pieces.push(whole.subarray(cursor));
  return { skeleton: new Uint8Array(Buffer.concat(pieces)), layout };
}

/**
 * The envelope's bytes from its skeleton, layout and the documents' stored XML. Throws when a document is missing
 * or shorter than its slice (stored documents are never changed or deleted, so that is a broken database).
 */
export function joinEnvelope(skeleton: Uint8Array, layout: EnvelopeLayout, xmlById: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const base = asBuffer(skeleton);
  const pieces: Buffer[] = [];
  let cursor = 0;
  for (const [id, at, from, to] of layout) {
    const xml = xmlById.get(id);
    if (!xml || xml.byteLength < to || at < cursor || at > base.length) throw new Error(`stored envelope refers to ${id}, which does not hold its bytes`);
    pieces.push(base.subarray(cursor, at), asBuffer(xml).subarray(from, to));
    cursor = at;
  }
  pieces.push(base.subarray(cursor));
  return new Uint8Array(Buffer.concat(pieces));
}

/** What goes into `envelopes.xml` / `envelopes.layout`. */
export interface StoredEnvelope {
  xml: Uint8Array;
  layout: EnvelopeLayout | null;
}

/** The envelope as stored: its skeleton and layout, or the whole envelope when its documents cannot be cut out. */
export function storedEnvelope(envelope: Uint8Array, documents: DocumentBytes[]): StoredEnvelope {
  const cut = cutEnvelope(envelope, documents);
  return cut ? { xml: cut.skeleton, layout: cut.layout } : { xml: envelope, layout: null };
}
