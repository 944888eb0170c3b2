/** Civil dates in Chile (API.md §1: dates are `YYYY-MM-DD` in `America/Santiago`). */

const CHILE_DATE = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Santiago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The last second asked and its date (`formatToParts` is slow; every request asks, and within a second the answer holds). */
let last = { second: Number.NaN, date: "" };

/** Today's date in Chile at the instant `now`, as `YYYY-MM-DD` (e.g. 2026-01-01T02:00Z → "2025-12-31"). */
export function chileToday(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second === last.second) return last.date;
  const parts = Object.fromEntries(CHILE_DATE.formatToParts(now).map((p) => [p.type, p.value]));
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  if (!Number.isNaN(second)) last = { second, date };
  return date;
}

