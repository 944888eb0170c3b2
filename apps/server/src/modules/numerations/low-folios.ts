/** When a range is "low" (`numeration.low`, API.md §6.6): fewer than 10 % or fewer than 50 of its folios left. */
import type { NumerationRow } from "../../db/numerations.js";

export const LOW_FOLIOS_FRACTION = 0.1;
export const LOW_FOLIOS_COUNT = 50;

export function isLow(row: Pick<NumerationRow, "desde" | "hasta" | "siguiente">): boolean {
  const total = row.hasta - row.desde + 1;
  const left = Math.max(0, row.hasta - row.siguiente + 1);
  return left < total * LOW_FOLIOS_FRACTION || left < LOW_FOLIOS_COUNT;
}

/** Taking `count` folios from `first` on leaves the range low where it was not before (`numeration.low` is due). */
export function becomesLow(range: Pick<NumerationRow, "desde" | "hasta">, first: number, count: number): boolean {
  return !isLow({ ...range, siguiente: first }) && isLow({ ...range, siguiente: first + count });
}
