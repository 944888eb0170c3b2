/**
 * `forEachConcurrently(items, limit, work)`: runs `work` on every item with at most `limit` running at once, each
 * runner taking the next item as soon as its previous one ends (no waiting for the slowest of a chunk). Resolves
 * when every item is done. `work` is expected to handle its own failures; one that throws rejects the whole call
 * once the runners stop (the other items still run).
 *
 * @example
 * await forEachConcurrently(envelopes, 8, (e) => askTheSii(e)); // 8 SII questions in flight
 */
export async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const runner = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, runner));
  if (failures.length > 0) throw failures[0];
}

/**
 * The promise `make()` gives for `key`, made once and shared by every caller that asks for the same key while `map`
 * lives (typically one round of work: its SII sessions, the status of an envelope several documents share).
 *
 * @example
 * const status = await memo(statuses, trackId, () => client.getUploadStatus(query));
 */
export function memo<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = map.get(key);
  if (!value) {
    value = make();
    map.set(key, value);
  }
  return value;
}

export interface PacerOptions {
  /** Average rate: takes per second. */
  perSecond: number;
  /** Takes that may go at once after a quiet spell (the bucket's size); at least 1. */
  burst: number;
  /** Clock and sleep, for tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface Pacer {
  /** Resolves when the caller may go: at once while the bucket has a token, else when the next one is due. */
  take(): Promise<void>;
}

/**
 * A token bucket for background work that must not crowd out requests: `burst` tokens, refilled at `perSecond`;
 * callers waiting for a token are served in order, each at its own due time (no thundering herd).
 *
 * @example
 * const pacer = createPacer({ perSecond: 20, burst: 8 });
 * await pacer.take(); // then ask the SII
 */
export function createPacer(options: PacerOptions): Pacer {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const interval = 1000 / options.perSecond;
  const burst = Math.max(1, options.burst);
  // When the last granted take's token came (or comes) due: each take's is one interval after the previous one's,
  // and never earlier than a full bucket allows (`burst` intervals before now).
  let dueAt = -Infinity;
  return {
    async take() {
      const t = now();
      dueAt = Math.max(dueAt, t - burst * interval) + interval;
      const wait = dueAt - t;
      if (wait > 0) await sleep(wait);
    },
  };
}
