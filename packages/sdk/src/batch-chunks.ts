/**
 * Many documents as `POST /dte/batch` requests within the API's limits (API.md §8: 500 documents and a 1 MiB JSON
 * body per request), each with an idempotency key made from its content: sending the same chunk again — a re-run
 * after an interruption, a second click — replays the first answer instead of emitting twice (for 24 h).
 */
import type { EmitParams } from "./types.js";

export interface BatchChunk {
  /** Position of the chunk's first document in the whole list. */
  start: number;
  documents: EmitParams[];
}

export const BATCH_MAX_DOCUMENTS = 500;
/** Under the API's 1 MiB body limit, with room for the wrapper. */
export const BATCH_MAX_BYTES = 1_000_000;

/** Consecutive chunks of at most `maxDocuments` documents and `maxBytes` of JSON (a larger document goes alone). */
export function chunkDocuments(documents: readonly EmitParams[], { maxDocuments = BATCH_MAX_DOCUMENTS, maxBytes = BATCH_MAX_BYTES } = {}): BatchChunk[] {
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
  documents: readonly EmitParams[],
  send: (chunk: EmitParams[]) => Promise<R[]>,
  { maxDocuments = BATCH_MAX_DOCUMENTS, onProgress }: { maxDocuments?: number; onProgress?: (results: readonly R[], total: number) => void } = {},
): Promise<R[]> {
  const results: R[] = [];
  for (const { start, documents: chunk } of chunkDocuments(documents, { maxDocuments })) {
    results.push(...(await send(chunk)).map((r) => ({ ...r, index: start + r.index })));
    onProgress?.(results, documents.length);
  }
  return results;
}

/** `batch-` and 48 hex digits of the SHA-256 of the chunk's documents as JSON (Web Crypto: Node, Bun, browsers). */
export async function chunkKey(documents: readonly EmitParams[]): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(documents)));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `batch-${hex.slice(0, 48)}`;
}
