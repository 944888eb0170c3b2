/** Civil dates in Chile (API.md §1: dates are `YYYY-MM-DD` in `America/Santiago`). */

const CHILE_DATE = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Santiago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Today's date in Chile at the instant `now`, as `YYYY-MM-DD` (e.g. 2026-01-01T02:00Z → "2025-12-31"). */
export function chileToday(now: Date): string {
  const parts = Object.fromEntries(CHILE_DATE.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}
