/** The period of `dte resumen`: a month as its first and last day. */

/** `2026-11` → its first and last day; null when it is not a month. */
export function monthRange(month: string): { desde: string; hasta: string } | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) return null;
  const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
  return { desde: `${month}-01`, hasta: `${month}-${String(last).padStart(2, "0")}` };
}
