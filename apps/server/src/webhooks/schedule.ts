/**
 * Retry schedule of webhook deliveries (API.md §6.6): after the first attempt fails, retry after 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h; then the delivery is marked failed.
 */
export const RETRY_DELAYS_S = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** Seconds to wait before attempt `attempt + 1` (attempts count from 1), or null when no attempt is left. */
export function nextRetryDelay(attempt: number): number | null {
  return RETRY_DELAYS_S[attempt - 1] ?? null;
}

/** Receivers must answer within this many milliseconds (spec §6). */
export const DELIVERY_TIMEOUT_MS = 10_000;
