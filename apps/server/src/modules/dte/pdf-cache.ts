/**
 * Rendered PDFs, kept in memory (LRU by total bytes): what is printed never changes after emission (the signed
 * document, its timbre and resolution), so each variant is rendered once per process.
 */
const MAX_BYTES = 64 * 1024 * 1024;
const entries = new Map<string, Uint8Array>();
let total = 0;

export function cachedPdf(key: string): Uint8Array | undefined {
  const hit = entries.get(key);
  if (hit) {
    entries.delete(key);
    entries.set(key, hit);
  }
  return hit;
}

export function storePdf(key: string, bytes: Uint8Array): void {
  if (bytes.byteLength > MAX_BYTES / 4) return;
  const previous = entries.get(key);
  if (previous) total -= previous.byteLength;
  entries.set(key, bytes);
  total += bytes.byteLength;
  for (const [oldest, value] of entries) {
    if (total <= MAX_BYTES) break;
    entries.delete(oldest);
    total -= value.byteLength;
  }
}

/** Renders counted per key (tests check that a GET does not re-render). */
export const renderCounts = new Map<string, number>();
