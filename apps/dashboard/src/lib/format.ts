/** Spanish (Chile) formatting of money, dates, document types and states. */
import type { AcceptanceStatus, DteStatus, Environment, NumerationStatus } from "@timbre/sdk";

const clp = new Intl.NumberFormat("es-CL", { style: "currency", currency: "CLP", maximumFractionDigits: 0 });
const integer = new Intl.NumberFormat("es-CL");
const dateTime = new Intl.DateTimeFormat("es-CL", { dateStyle: "medium", timeStyle: "short", timeZone: "America/Santiago" });
const dateOnly = new Intl.DateTimeFormat("es-CL", { dateStyle: "medium", timeZone: "UTC" });

const unitPrice = new Intl.NumberFormat("es-CL", { style: "currency", currency: "CLP", maximumFractionDigits: 6 });
/** A unit price, which may carry decimals (up to 6) where amounts do not. */
export const price = (n: number | null | undefined): string => (typeof n === "number" ? unitPrice.format(n) : "—");
export const money = (n: number | null | undefined): string => (typeof n === "number" ? clp.format(n) : "—");
export const number = (n: number | null | undefined): string => (typeof n === "number" ? integer.format(n) : "—");
/** A count with its noun: `1 documento`, `1.200 documentos`. */
export const countOf = (n: number, one: string, many: string): string => `${integer.format(n)} ${n === 1 ? one : many}`;

/** An ISO timestamp in Chile's civil time. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

const dateTimeShort = new Intl.DateTimeFormat("es-CL", { dateStyle: "short", timeStyle: "short", timeZone: "America/Santiago" });

/** Compact form for tables. */
export function whenShort(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeShort.format(d);
}

/** A civil date `YYYY-MM-DD` (no time zone shift). */
export function day(date: string | null | undefined): string {
  if (!date) return "—";
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : dateOnly.format(d);
}

export const TIPOS: Record<number, string> = {
  33: "Factura electrónica",
  34: "Factura exenta electrónica",
  39: "Boleta electrónica",
  41: "Boleta exenta electrónica",
  52: "Guía de despacho electrónica",
  56: "Nota de débito electrónica",
  61: "Nota de crédito electrónica",
};
/** The tipos Timbre emits (and takes CAFs for), in the order forms offer them. */
export const TIPOS_CAF = [33, 34, 39, 41, 52, 56, 61] as const;

export const tipoName = (tipo: number): string => TIPOS[tipo] ?? `Tipo ${tipo}`;

export const ESTADOS: Record<DteStatus, string> = {
  PENDIENTE: "Pendiente",
  ENVIADO: "Enviado",
  ACEPTADO: "Aceptado",
  ACEPTADO_CON_REPAROS: "Aceptado con reparos",
  RECHAZADO: "Rechazado",
};

export const ESTADO_TONE: Record<DteStatus, string> = {
  PENDIENTE: "neutral",
  ENVIADO: "info",
  ACEPTADO: "ok",
  ACEPTADO_CON_REPAROS: "warn",
  RECHAZADO: "bad",
};

export const NUMERATION_ESTADOS: Record<NumerationStatus, [string, string]> = {
  activa: ["Activa", "ok"],
  agotada: ["Agotada", "neutral"],
  vencida: ["Vencida", "bad"],
};

/** The receiver's answer to a factura in the SII's registry (Ley 19.983): label and badge tone. */
export const ACCEPTANCE_ESTADOS: Record<AcceptanceStatus, [string, string]> = {
  NO_APLICA: ["No aplica", "neutral"],
  SIN_CONSULTAR: ["Sin consultar", "neutral"],
  SIN_RESPUESTA: ["Sin respuesta", "info"],
  ACEPTADO: ["Aceptada", "ok"],
  RECLAMADO: ["Reclamada", "bad"],
  ACEPTADO_TACITO: ["Aceptada tácitamente", "ok"],
};

export const ENV_NAMES: Record<Environment, string> = { test: "Pruebas", live: "Producción" };

/** Whole days from `now` until `iso` (negative when past). */
export function daysUntil(iso: string, now: Date = new Date()): number {
  return Math.floor((new Date(iso).getTime() - now.getTime()) / 86_400_000);
}

/** Today in Chile, `YYYY-MM-DD` (a tax date's default and limit). */
export function chileToday(now = new Date()): string {
  return new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Santiago" }).format(now);
}

/** The first and last day of the month `offset` months from the one of `today` (`YYYY-MM-DD`). */
export function monthOf(today: string, offset = 0): { desde: string; hasta: string } {
  const [y, m] = today.split("-").map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 + offset, 1));
  const last = new Date(Date.UTC(y, m + offset, 0));
  return { desde: first.toISOString().slice(0, 10), hasta: last.toISOString().slice(0, 10) };
}

/** An additional tax as the detail and the summary name it: `Impuesto adicional 25 (20,5 %)`. */
export const taxTerm = (t: { codigo: number; tasa: number }): string => `Impuesto adicional ${t.codigo} (${String(t.tasa).replace(".", ",")} %)`;
