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
