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
  let failure: { error: unknown } | null = null;
  const runner = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, runner));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
