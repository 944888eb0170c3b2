import type { Caf } from "./types.js";

/** Document types whose CAF folios expire (BRIEF §4: 33, 43, 46, 56, 61). Boletas, 34, 52… never expire. */
export const EXPIRING_CAF_TIPOS: readonly number[] = [33, 43, 46, 56, 61];

/** Months a CAF of an expiring type stays usable after `FA`. */
export const CAF_VALIDITY_MONTHS = 6;

/**
 * `date` (`YYYY-MM-DD`) plus whole calendar months: the same day-of-month, clamped to the last day of the target
 * month (2026-08-31 + 6 months = 2027-02-28).
 *
 * @example
 * addMonths("2026-01-15", 6) // "2026-07-15"
 */
export function addMonths(date: string, months: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  const total = Number(m[1]) * 12 + (Number(m[2]) - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12; // 0-based
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(Number(m[3]), lastDay);
  return `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * The date from which a CAF's folios may no longer be used, or `null` when that document type never expires.
 *
 * Definition (our choice, documented in TEAM-CONTRACTS.md): `FA` plus 6 calendar months, same day-of-month,
 * clamped to the month's last day; the range is usable on the days **before** this date and expired **on** it.
 * LibreDTE uses FA + 180 days instead, 1–4 days earlier than six calendar months; the SII's text says "seis
 * meses". Callers wanting LibreDTE's margin can stop allocating a few days before `expiresOn`.
 *
 * @example
 * cafExpiresOn({ tipo: 33, fechaAutorizacion: "2026-01-15" }) // "2026-07-15"
 * cafExpiresOn({ tipo: 39, fechaAutorizacion: "2026-01-15" }) // null
 */
export function cafExpiresOn(caf: Pick<Caf, "tipo" | "fechaAutorizacion">): string | null {
  if (!EXPIRING_CAF_TIPOS.includes(caf.tipo)) return null;
  return addMonths(caf.fechaAutorizacion, CAF_VALIDITY_MONTHS);
}

/**
 * Whether the CAF can no longer be used on `today` (`YYYY-MM-DD`, Chile's local date): `today >= cafExpiresOn`.
 *
 * @example
 * isCafExpired({ tipo: 33, fechaAutorizacion: "2026-01-15" }, "2026-07-14") // false
 * isCafExpired({ tipo: 33, fechaAutorizacion: "2026-01-15" }, "2026-07-15") // true
 */
export function isCafExpired(caf: Pick<Caf, "tipo" | "fechaAutorizacion">, today: string): boolean {
  const expiresOn = cafExpiresOn(caf);
  return expiresOn !== null && today >= expiresOn;
}
