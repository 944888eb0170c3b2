/** The SII writes its dates in Chile's local time (America/Santiago, with its summer time). */
export const CHILE_TIME_ZONE = "America/Santiago";

const formatter = new Intl.DateTimeFormat("en-CA", {
  timeZone: CHILE_TIME_ZONE,
  year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
});

/**
 * The last second asked and its text: `formatToParts` is slow (≈ 1.5 % of the server's thread under load, asked
 * several times per emission round), and the answer is the same for every instant of one second.
 */
let last = { second: Number.NaN, text: "" };

/**
 * An instant as Chile's local wall time, `YYYY-MM-DDTHH:MM:SS` (no offset).
 *
 * @example
 * chileLocalTime(new Date("2026-01-15T13:04:05Z")); // "2026-01-15T10:04:05" (summer time, UTC-3)
 */
export function chileLocalTime(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second === last.second) return last.text;
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(date)) parts[part.type] = part.value;
  const text = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  if (!Number.isNaN(second)) last = { second, text };
  return text;
}


/**
 * The instant of a Chilean wall time `YYYY-MM-DDTHH:MM:SS` (as {@link chileLocalTime} writes it and the client
 * normalises the SII's dates), or null when `text` is not one. Chile's offset (−3 or −4 h) is found by asking the
 * time zone at the guessed instant; at the hour a clock goes back, the earlier of the two instants is taken.
 *
 * @example
 * instantOfChileTime("2026-01-15T10:00:00")?.toISOString(); // "2026-01-15T13:00:00.000Z"
 */
export function instantOfChileTime(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (Number.isNaN(asUtc)) return null;
  const offsetAt = (instant: number) => Date.parse(`${chileLocalTime(new Date(instant))}Z`) - instant;
  let guess = asUtc - offsetAt(asUtc);
  guess = asUtc - offsetAt(guess);
  return new Date(guess);
}
