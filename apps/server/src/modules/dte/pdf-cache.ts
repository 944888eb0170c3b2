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

const rendering = new Map<string, Promise<Uint8Array>>();

/**
 * The PDF of `key`, rendered by `render` unless a render of the same key is already running: requests for the same
 * variant at once share one render (and one place in the business's PDF bound) instead of each rendering it.
 */
export function renderOnce(key: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const running = rendering.get(key);
  if (running) return running;
  const started = render().finally(() => rendering.delete(key));
  rendering.set(key, started);
  return started;
}

/** Renders counted per key (tests check that a GET does not re-render). */
export const renderCounts = new Map<string, number>();
