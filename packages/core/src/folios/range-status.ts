import type { FolioRange, RangeStatus } from "./types.js";

type Counted = Pick<FolioRange, "desde" | "hasta" | "siguiente">;

/**
 * Folios still available: `hasta − siguiente + 1`, clamped to `[0, hasta − desde + 1]`.
 *
 * @example
 * available({ desde: 1, hasta: 100, siguiente: 11 }) // 90
 */
export function available(range: Counted): number {
  const size = range.hasta - range.desde + 1;
  return Math.max(0, Math.min(size, range.hasta - range.siguiente + 1));
}

/**
 * Folios already handed out (`siguiente − desde`, clamped).
 *
 * @example
 * usedFolios({ desde: 1, hasta: 100, siguiente: 11 }) // 10
 */
export function usedFolios(range: Counted): number {
  return range.hasta - range.desde + 1 - available(range);
}

/**
 * `true` when no folio is left.
 *
 * @example
 * isExhausted({ desde: 1, hasta: 100, siguiente: 101 }) // true
 */
export function isExhausted(range: Counted): boolean {
  return available(range) === 0;
}

/**
 * `true` when the range may no longer be used on `today` (`YYYY-MM-DD`): `today >= expiresOn`.
 *
 * @example
 * isExpired({ expiresOn: "2026-07-15" }, "2026-07-15") // true
 * isExpired({ expiresOn: null }, "2099-01-01")         // false
 */
export function isExpired(range: Pick<FolioRange, "expiresOn">, today: string): boolean {
  return range.expiresOn !== null && today >= range.expiresOn;
}

/**
 * `"agotada"` (no folio left — wins over expiry), `"vencida"` (expired on `today`) or `"activa"`.
 *
 * @example
 * rangeStatus({ desde: 1, hasta: 10, siguiente: 3, expiresOn: "2026-07-15" }, "2026-08-01") // "vencida"
 */
export function rangeStatus(range: Counted & Pick<FolioRange, "expiresOn">, today: string): RangeStatus {
  if (isExhausted(range)) return "agotada";
  if (isExpired(range, today)) return "vencida";
  return "activa";
}

/**
 * `true` when both ranges are of the same `tipo` and share at least one folio (a second CAF overlapping an
 * existing one is refused with 409).
 *
 * @example
 * rangesOverlap({ tipo: 33, desde: 1, hasta: 100 }, { tipo: 33, desde: 100, hasta: 200 }) // true
 * rangesOverlap({ tipo: 33, desde: 1, hasta: 100 }, { tipo: 39, desde: 1, hasta: 100 })   // false
 */
export function rangesOverlap(
  a: Pick<FolioRange, "tipo" | "desde" | "hasta">,
  b: Pick<FolioRange, "tipo" | "desde" | "hasta">,
): boolean {
  return a.tipo === b.tipo && a.desde <= b.hasta && b.desde <= a.hasta;
}
