/** Chile's civil time (America/Santiago) for signature timestamps; dates come from `chileToday` (time.ts). */
export { chileToday as chileDate } from "../../time.js";

const FORMAT = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Santiago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** `YYYY-MM-DDTHH:MM:SS` in Chile at `at` (TmstFirma, TmstFirmaEnv). */
export function chileTimestamp(at: Date): string {
  const p: Record<string, string> = {};
  for (const part of FORMAT.formatToParts(at)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/**
 * The instant of a Chilean civil time `YYYY-MM-DDTHH:MM:SS` (as the SII writes its dates), or null when `text` is
 * not one. Chile's offset (−3 or −4 h) is found by asking the time zone at the guessed instant; at the hour a
 * clock goes back, the earlier of the two instants is taken.
 *
 * @example
 * fromChileTimestamp("2026-01-15T10:00:00")?.toISOString(); // "2026-01-15T13:00:00.000Z"
 */
export function fromChileTimestamp(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (Number.isNaN(asUtc)) return null;
  const offsetAt = (instant: number) => Date.parse(`${chileTimestamp(new Date(instant))}Z`) - instant;
  let guess = asUtc - offsetAt(asUtc);
  guess = asUtc - offsetAt(guess);
  return new Date(guess);
}
