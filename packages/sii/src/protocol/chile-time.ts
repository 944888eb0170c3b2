/** The SII writes its dates in Chile's local time (America/Santiago, with its summer time). */
export const CHILE_TIME_ZONE = "America/Santiago";

const formatter = new Intl.DateTimeFormat("en-CA", {
  timeZone: CHILE_TIME_ZONE,
  year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
});

/**
 * An instant as Chile's local wall time, `YYYY-MM-DDTHH:MM:SS` (no offset).
 *
 * @example
 * chileLocalTime(new Date("2026-01-15T13:04:05Z")); // "2026-01-15T10:04:05" (summer time, UTC-3)
 */
export function chileLocalTime(date: Date): string {
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}
