/**
 * The codes of a guía de despacho (52) in words, as the SII names them (formato DTE v2.2, IdDoc fields 6 and 7): the
 * printed copy must show them as words (column "P"), and forms offer them as choices.
 */
import type { DispatchKind, TransferKind } from "./types.js";

/** `IndTraslado` in words. */
export const TRANSFER_KINDS: Readonly<Record<TransferKind, string>> = {
  1: "Operación constituye venta",
  2: "Ventas por efectuar",
  3: "Consignaciones",
  4: "Entrega gratuita",
  5: "Traslados internos",
  6: "Otros traslados no venta",
  7: "Guía de devolución",
  8: "Traslado para exportación (no venta)",
  9: "Venta para exportación",
};

/** `TipoDespacho` in words. */
export const DISPATCH_KINDS: Readonly<Record<DispatchKind, string>> = {
  1: "Por cuenta del receptor",
  2: "Por cuenta del emisor a instalaciones del cliente",
  3: "Por cuenta del emisor a otras instalaciones",
};

/**
 * Export guías (`IndTraslado` 8, 9): they need customs data (Aduana: ports, packages, weights) that Timbre does not
 * take yet, so validation refuses them and forms do not offer them.
 */
export const EXPORT_TRANSFER_KINDS: readonly TransferKind[] = [8, 9];

/** Whether `value` is an `IndTraslado` code (1–9). */
export const isTransferKind = (value: unknown): value is TransferKind =>
  typeof value === "number" && Object.prototype.hasOwnProperty.call(TRANSFER_KINDS, value);

/** Whether `value` is a `TipoDespacho` code (1–3). */
export const isDispatchKind = (value: unknown): value is DispatchKind =>
  typeof value === "number" && Object.prototype.hasOwnProperty.call(DISPATCH_KINDS, value);

/**
 * `IndTraslado` in words, or the code as text when it is not one.
 *
 * @example
 * transferKindLabel(5) // "Traslados internos"
 */
export function transferKindLabel(code: number): string {
  return isTransferKind(code) ? TRANSFER_KINDS[code] : String(code);
}

/**
 * `TipoDespacho` in words, or the code as text when it is not one.
 *
 * @example
 * dispatchKindLabel(2) // "Por cuenta del emisor a instalaciones del cliente"
 */
export function dispatchKindLabel(code: number): string {
  return isDispatchKind(code) ? DISPATCH_KINDS[code] : String(code);
}
