/** Civil dates in Chile (API.md §1: dates are `YYYY-MM-DD` in `America/Santiago`). */
import { chileLocalTime } from "@timbre/sii/client";

/**
 * Today's date in Chile at the instant `now`, as `YYYY-MM-DD` (e.g. 2026-01-01T02:00Z → "2025-12-31"): the date of
 * Chile's wall time at that instant (`chileLocalTime`, which formats each second once).
 */
export function chileToday(now: Date): string {
  return chileLocalTime(now).slice(0, 10);
}
