/**
 * Many documents as `POST /dte/batch` requests within the API's limits (API.md §8: 500 documents and a 1 MiB JSON
 * body per request), and documents keyed by their content (`withContentKeys`) so that a set of sales sent again —
 * a re-run after an interruption, a second click, a spreadsheet fixed and sent whole — emits only what was not
 * emitted before (for 24 h).
 */
import type { BatchDocument } from "./types.js";

export interface BatchChunk {
  /** Position of the chunk's first document in the whole list. */
  start: number;
  documents: BatchDocument[];
}

export const BATCH_MAX_DOCUMENTS = 500;
/** Under the API's 1 MiB body limit, with room for the wrapper. */
export const BATCH_MAX_BYTES = 1_000_000;

/** Consecutive chunks of at most `maxDocuments` documents and `maxBytes` of JSON (a larger document goes alone). */
export function chunkDocuments(documents: readonly BatchDocument[], { maxDocuments = BATCH_MAX_DOCUMENTS, maxBytes = BATCH_MAX_BYTES } = {}): BatchChunk[] {
  const encoder = new TextEncoder();
  const wrapper = encoder.encode('{"documents":[]}').length;
  const chunks: BatchChunk[] = [];
  let current: BatchChunk | null = null;
  let bytes = 0;
  documents.forEach((document, i) => {
    const size = encoder.encode(JSON.stringify(document)).length + 1; // and its comma
    if (!current || current.documents.length >= maxDocuments || bytes + size > maxBytes) {
      current = { start: i, documents: [] };
      chunks.push(current);
      bytes = wrapper;
    }
    current.documents.push(document);
    bytes += size;
  });
  return chunks;
}

/**
 * Sends `documents` chunk by chunk, one request after the other, and returns every result renumbered from its place in
 * its chunk to its place in `documents`; `onProgress` sees the results so far after each request. What the SDK's
 * `batchAll`/`batchPreviewAll` and the dashboard's import (which calls the API without the SDK client) both run.
 */
export async function sendInChunks<R extends { index: number }>(
  documents: readonly BatchDocument[],
  send: (chunk: BatchDocument[]) => Promise<R[]>,
  { maxDocuments = BATCH_MAX_DOCUMENTS, onProgress }: { maxDocuments?: number; onProgress?: (results: readonly R[], total: number) => void } = {},
): Promise<R[]> {
  const results: R[] = [];
  for (const { start, documents: chunk } of chunkDocuments(documents, { maxDocuments })) {
    results.push(...(await send(chunk)).map((r) => ({ ...r, index: start + r.index })));
    onProgress?.(results, documents.length);
  }
  return results;
}

/**
 * The documents, each with an `idempotency_key` (a Timbre extension of `POST /dte/batch`) made from its content and
 * its place among equal documents: `doc-`, 40 hex digits of the SHA-256 of the document as canonical JSON (object
 * keys sorted), `-` and 1 for the first such document of the list, 2 for the second… A document that has a key keeps
 * it. Sent again within 24 h, a document with the same key is answered as it was emitted (`replayed: true`) instead
 * of emitted twice; one that changed has another key and is emitted. Two equal boletas of one list stay two sales.
 *
 * For a list that is one set of sales — a spreadsheet, an export of the day — not for a stream of independent sales:
 * two equal documents sent in two separate lists within 24 h would be taken for one.
 */
export async function withContentKeys(documents: readonly BatchDocument[]): Promise<BatchDocument[]> {
  const digests = await Promise.all(documents.map((document) => sha256Hex(canonicalJson(document))));
  // Places are counted in the list's order (not as the digests complete).
  const seen = new Map<string, number>();
  return documents.map((document, i) => {
    if (document.idempotency_key !== undefined) return document;
    const digest = digests[i] as string;
    const n = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, n);
    return { ...document, idempotency_key: `doc-${digest.slice(0, 40)}-${n}` };
  });
}

/** JSON with object keys sorted at every level, so the same document built in another order has the same key. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Web Crypto: Node, Bun and browsers. */
async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
