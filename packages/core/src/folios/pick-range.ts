import { TimbreError } from "../errors/index.js";
import { rangeStatus } from "./range-status.js";
import type { FolioRange } from "./types.js";

/**
 * Orders ranges oldest first: lowest `fechaAutorizacion`, then lowest `desde`, then `id` (total order).
 *
 * @example
 * [...ranges].sort(compareRangesOldestFirst)
 */
export function compareRangesOldestFirst(a: FolioRange, b: FolioRange): number {
  if (a.fechaAutorizacion !== b.fechaAutorizacion) return a.fechaAutorizacion < b.fechaAutorizacion ? -1 : 1;
  if (a.desde !== b.desde) return a.desde - b.desde;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The range the next folio of `tipo` comes from: the oldest active one (see {@link compareRangesOldestFirst}),
 * skipping exhausted and expired ranges and those authorised after `today` — the document's date: the SII rejects
 * a document dated before its CAF's authorisation (HED-3-305); `null` when there is none.
 *
 * @example
 * pickRange(ranges, 33, "2026-03-01")?.id // "caf_old"
 */
export function pickRange(ranges: readonly FolioRange[], tipo: number, today: string): FolioRange | null {
  let best: FolioRange | null = null;
  for (const range of ranges) {
    if (range.tipo !== tipo || rangeStatus(range, today) !== "activa" || range.fechaAutorizacion > today) continue;
    if (best === null || compareRangesOldestFirst(range, best) < 0) best = range;
  }
  return best;
}

/**
 * Takes the next folio of `tipo`: returns the folio and the range with `siguiente` advanced (the caller persists
 * it atomically). Throws `FOLIOS_EXHAUSTED` (details `{ tipo }`) when no active range is left.
 *
 * @example
 * const { folio, range } = allocateFolio(ranges, 33, "2026-03-01"); // folio 11, range.siguiente 12
 */
export function allocateFolio(ranges: readonly FolioRange[], tipo: number, today: string): { folio: number; range: FolioRange } {
  const range = pickRange(ranges, tipo, today);
  if (!range) {
    throw new TimbreError("FOLIOS_EXHAUSTED", `no active folio range for tipo ${tipo}`, { details: { tipo } });
  }
  const folio = Math.max(range.siguiente, range.desde);
  return { folio, range: { ...range, siguiente: folio + 1 } };
}
