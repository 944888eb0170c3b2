/**
 * Deleting what has expired (rate-limit windows, Idempotency-Keys, failed logins) is done now and then by the
 * requests that add such rows, in the background: awaited, it cost one request in a hundred a round trip more —
 * exactly the 99th percentile of the emission latency that bench/RESULTS.md §6 tracks. Nothing waits for these
 * rows to go: every reader already ignores expired ones. A failed delete is left for a later turn.
 */
export function nowAndThen(chance: number, work: () => PromiseLike<unknown>, random: () => number = Math.random): void {
  if (random() >= chance) return;
  Promise.resolve()
    .then(work)
    .then(undefined, () => {});
}
