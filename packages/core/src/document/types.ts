/**
 * The domain model of one tax document, shared by totals, XML, timbre and PDF. Field names are English in code;
 * the API layer maps its Spanish JSON names (`razon_social`, `precio`…) onto these.
 */

/** Document types Timbre issues. */
export const TIPOS = [33, 34, 39, 41, 52, 56, 61] as const;
export type Tipo = (typeof TIPOS)[number];

/** Receipts (boletas) travel in EnvioBOLETA and follow the EnvioBOLETA_v11 schema. */
export const RECEIPT_TIPOS: readonly Tipo[] = [39, 41];
/** Exempt-only types: no net amount, no IVA. */
export const EXEMPT_TIPOS: readonly Tipo[] = [34, 41];
/** Tipos with a transferable (cedible) copy, the acuse de recibo of Ley 19.983: facturas (43 and 46 too) and guías de despacho; never exports. */
export const CEDIBLE_TIPOS: readonly number[] = [33, 34, 43, 46, 52];
/** Credit and debit notes: must reference the document they modify. */
export const NOTE_TIPOS: readonly Tipo[] = [56, 61];

/**
 * Tax document codes a `Referencia/TpoDocRef` can name as the document a note modifies (BRIEF §11): the electronic
 * DTEs and their paper predecessors. Everything else (801–820 orden de compra, contrato…, `SET`, free text) is a
 * reference for information only.
 */
export const TAX_DOCUMENT_TIPOS: readonly number[] = [30, 32, 33, 34, 35, 38, 39, 40, 41, 43, 45, 46, 50, 52, 55, 56, 60, 61, 103, 110, 111, 112];

/** `TpoDocRef` as a tax document code, or null when it names something else. */
export function taxDocumentTipo(tipoDoc: number | string): number | null {
  const n = typeof tipoDoc === "number" ? tipoDoc : /^\d+$/.test(tipoDoc) ? Number(tipoDoc) : NaN;
  return TAX_DOCUMENT_TIPOS.includes(n) ? n : null;
}

/** `TpoDocRef` codes of documents that are not tax documents (formato DTE v2.2, E. Referencias, field 2): 801–815, 820. */
export const OTHER_REFERENCE_TIPOS: readonly number[] = [801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815, 820];

/**
 * Whether a `TpoDocRef` is one the SII takes: a numeric one must be a code of the format manual's list (tax documents
 * and 801–820); letters are free ("Si es alfabético no hay validación", same field).
 *
 * @example
 * isKnownReferenceType(33) // true; isKnownReferenceType("SET") // true; isKnownReferenceType(5) // false
 */
export function isKnownReferenceType(tipoDoc: number | string): boolean {
  const n = typeof tipoDoc === "number" ? tipoDoc : /^\d+$/.test(tipoDoc) ? Number(tipoDoc) : null;
  return n === null || TAX_DOCUMENT_TIPOS.includes(n) || OTHER_REFERENCE_TIPOS.includes(n);
}

/** Earliest and latest `FchRef` the format manual accepts ("Fecha válida entre 2002-08-01 y 2050-12-31"). */
export const REFERENCE_DATE_RANGE = { min: "2002-08-01", max: "2050-12-31" } as const;

/** RUT bodies the format manual accepts for the parties of a document ("Cuerpo numérico entre 100.000 y 99 millones"). */
export const RUT_BODY_RANGE = { min: 100_000, max: 99_999_999 } as const;

/**
 * Where a RUT's body stands against `RUT_BODY_RANGE`: `below`, `above` or `within` (check digit not judged).
 *
 * @example
 * rutBodyRange("1-9") // "below"; rutBodyRange("76.192.083-9") // "within"
 */
export function rutBodyRange(rut: string): "below" | "within" | "above" {
  const body = Number(rut.replace(/[.\s]/g, "").split("-")[0]);
  if (!Number.isFinite(body) || body < RUT_BODY_RANGE.min) return "below";
  return body > RUT_BODY_RANGE.max ? "above" : "within";
}

/**
 * Facturas 33/34 must inform `FmaPago`; without it the SII takes 2 (crédito) — formato DTE, "Cambios 31/05/2017"
 * item 3. So that is what an unspecified one is written (and printed) as.
 */
export function defaultPaymentTerm(tipo: number): 2 | undefined {
  return tipo === 33 || tipo === 34 ? 2 : undefined;
}

export const isReceipt = (tipo: number): boolean => tipo === 39 || tipo === 41;
export const isExemptTipo = (tipo: number): boolean => tipo === 34 || tipo === 41;
export const isNote = (tipo: number): boolean => tipo === 56 || tipo === 61;
/** The guía de despacho electrónica (52): it carries `traslado` (IndTraslado, TipoDespacho) and `transporte`. */
export const isDispatchGuide = (tipo: number): boolean => tipo === 52;

/**
 * IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados
 * internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación (no venta), 9 venta para
 * exportación.
 */
export type TransferKind = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones. */
export type DispatchKind = 1 | 2 | 3;

/** Why the goods of a guía de despacho move, and who dispatches them (`IdDoc/IndTraslado`, `IdDoc/TipoDespacho`). */
export interface Transfer {
  indicador: TransferKind;
  despacho?: DispatchKind;
}

/**
 * `Encabezado/Transporte` of a guía de despacho: the vehicle, the carrier, the driver and the destination when it is
 * not the receiver's address. Everything is optional (formato DTE: give it when known when the document is made;
 * otherwise it may be written on the printed copy).
 */
export interface Transport {
  /** `Patente` of the vehicle (≤ 8). */
  patente?: string;
  /** `RUTTrans`: the carrier's RUT. */
  rutTransportista?: string;
  /** `Chofer/RUTChofer` and `Chofer/NombreChofer` (≤ 30): both or neither. */
  chofer?: { rut: string; nombre: string };
  /** `DirDest` (≤ 70). */
  direccionDestino?: string;
  /** `CmnaDest` (≤ 20); required with `direccionDestino`. */
  comunaDestino?: string;
  /** `CiudadDest` (≤ 20). */
  ciudadDestino?: string;
}

/** The issuer, taken from the business. */
export interface Issuer {
  rut: string;
  razonSocial: string;
  giro: string;
  /** SII economic activity codes, 1 to 4. */
  acteco: number[];
  direccion: string;
  comuna: string;
  ciudad?: string;
  telefono?: string;
  email?: string;
  /** SII branch code (`CdgSIISucur`). */
  sucursalSii?: number;
  /** SII unit printed under the red box (`S.I.I. - SANTIAGO CENTRO`). */
  unidadSii?: string;
}

export interface Receiver {
  rut: string;
  razonSocial: string;
  giro?: string;
  direccion?: string;
  comuna?: string;
  ciudad?: string;
  email?: string;
  contacto?: string;
}

/** One line. Quantities and prices are JSON numbers or decimal strings (up to 6 decimals). */
export interface Line {
  nombre: string;
  descripcion?: string;
  cantidad: number | string;
  /** Unit price: net, or gross when the document says `preciosBrutos`. */
  precio: number | string;
  unidad?: string;
  descuentoPorcentaje?: number | string;
  codigo?: string;
  /** Exempt line (`IndExe` 1). */
  exento?: boolean;
  /** Code of the additional tax on this line (`CodImpAdic`), one of `ADDITIONAL_TAXES`: 27 for soft drinks, say. */
  impuestoAdicional?: number;
}

/** `CodRef`: 1 annuls, 2 corrects text, 3 corrects amounts. */
export type ReferenceCode = 1 | 2 | 3;

export interface Reference {
  /** Type of the referenced document (`TpoDocRef`): a tipo code, 801…, or free text such as `SET`. */
  tipoDoc: number | string;
  folio: number | string;
  /** `YYYY-MM-DD`. */
  fecha: string;
  razon?: string;
  codigo?: ReferenceCode;
}

/** 1 contado, 2 crédito, 3 sin costo. */
export type PaymentTerm = 1 | 2 | 3;

/** The SII resolution that authorises the issuer (printed on the PDF, in the envelope carátula). */
export interface Resolution {
  numero: number;
  /** `YYYY-MM-DD`. */
  fecha: string;
}

/** Everything needed to compute totals. */
export interface DocumentContent {
  tipo: Tipo;
  items: Line[];
  preciosBrutos?: boolean;
  descuentoGlobalPorcentaje?: number | string;
  /** For notes: a "corrige texto" note (CodRef 2) carries zero amounts. */
  referencias?: Reference[];
}

/** A complete document ready to be built: content plus identity. */
export interface DocumentInput extends DocumentContent {
  folio: number;
  /** Tax date `YYYY-MM-DD` (`FchEmis`). */
  fecha: string;
  issuer: Issuer;
  receiver: Receiver;
  formaPago?: PaymentTerm;
  observaciones?: string;
  /** Guía de despacho (52) only: why the goods move (required on 52) and who carries them. */
  traslado?: Transfer;
  transporte?: Transport;
}
