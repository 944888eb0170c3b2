/** Codes printed as words (BRIEF §9, §11): the SII requires names, never bare codes, on the printed document. */

const DOCUMENT_NAMES: Record<string, string> = {
  "30": "FACTURA",
  "32": "FACTURA NO AFECTA O EXENTA",
  "33": "FACTURA ELECTRÓNICA",
  "34": "FACTURA NO AFECTA O EXENTA ELECTRÓNICA",
  "35": "BOLETA",
  "38": "BOLETA EXENTA",
  "39": "BOLETA ELECTRÓNICA",
  "40": "LIQUIDACIÓN FACTURA",
  "41": "BOLETA EXENTA ELECTRÓNICA",
  "43": "LIQUIDACIÓN FACTURA ELECTRÓNICA",
  "45": "FACTURA DE COMPRA",
  "46": "FACTURA DE COMPRA ELECTRÓNICA",
  "50": "GUÍA DE DESPACHO",
  "52": "GUÍA DE DESPACHO ELECTRÓNICA",
  "55": "NOTA DE DÉBITO",
  "56": "NOTA DE DÉBITO ELECTRÓNICA",
  "60": "NOTA DE CRÉDITO",
  "61": "NOTA DE CRÉDITO ELECTRÓNICA",
  "103": "LIQUIDACIÓN",
  "110": "FACTURA DE EXPORTACIÓN ELECTRÓNICA",
  "111": "NOTA DE DÉBITO DE EXPORTACIÓN ELECTRÓNICA",
  "112": "NOTA DE CRÉDITO DE EXPORTACIÓN ELECTRÓNICA",
};

const REFERENCE_NAMES: Record<string, string> = {
  "801": "Orden de compra",
  "802": "Nota de pedido",
  "803": "Contrato",
  "804": "Resolución",
  "805": "Proceso ChileCompra",
  "806": "Ficha ChileCompra",
  "807": "DUS",
  "808": "B/L (conocimiento de embarque)",
  "809": "AWB (guía aérea)",
  "810": "MIC/DTA",
  "811": "Carta de porte",
  "812": "Resolución del SNA",
  "813": "Pasaporte",
  "814": "Certificado de depósito Bolsa Prod. Chile",
  "815": "Vale de prenda Bolsa Prod. Chile",
  "820": "Registro de acuerdos con plazo de pago excepcional",
  SET: "Set de pruebas SII",
};

const REFERENCE_CODES: Record<number, string> = {
  1: "Anula documento de referencia",
  2: "Corrige texto del documento de referencia",
  3: "Corrige montos",
};

const PAYMENT_TERMS: Record<number, string> = { 1: "Contado", 2: "Crédito", 3: "Sin costo (entrega gratuita)" };

const capitalize = (s: string): string => s.charAt(0) + s.slice(1).toLowerCase();

/**
 * The document name in words, uppercase as printed in the red box.
 *
 * @example
 * documentName(33) // "FACTURA ELECTRÓNICA"
 */
export function documentName(tipo: number | string): string {
  return DOCUMENT_NAMES[String(tipo)] ?? `DOCUMENTO TIPO ${String(tipo)}`;
}

/**
 * The type of a referenced document in words (`TpoDocRef`): DTE names, 801…820, `SET`; other text as given.
 *
 * @example
 * referenceTypeName(801) // "Orden de compra"; referenceTypeName(33) // "Factura electrónica"
 */
export function referenceTypeName(tipoDoc: number | string): string {
  const key = String(tipoDoc).trim();
  const dte = DOCUMENT_NAMES[key];
  if (dte) return capitalize(dte);
  return REFERENCE_NAMES[key.toUpperCase()] ?? key;
}

/**
 * `CodRef` in words.
 *
 * @example
 * referenceCodeName(1) // "Anula documento de referencia"
 */
export function referenceCodeName(code: number | undefined): string {
  return code === undefined ? "" : (REFERENCE_CODES[code] ?? String(code));
}

/**
 * `FmaPago` in words.
 *
 * @example
 * paymentTermName(2) // "Crédito"
 */
export function paymentTermName(term: number | undefined): string {
  return term === undefined ? "" : (PAYMENT_TERMS[term] ?? String(term));
}

export { formatMoney } from "./format.js";
