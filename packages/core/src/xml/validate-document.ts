/** Every domain problem of a document at once, before anything is built, stamped or signed. */
import { TIPOS, type DocumentInput } from "../document/types.js";
import type { ValidationIssue } from "../errors/index.js";
import { checkDecimal, checkText, IssueList } from "./check-field.js";
import { isDate } from "./constants.js";
import { validateDispatch } from "./validate-dispatch.js";
import { validateIssuer, validateReceiver } from "./validate-parties.js";
import { validateAmounts, validateItems, validateReferences } from "./validate-lines.js";

/**
 * Checks a document against the SII rules Timbre enforces: required receiver fields for 33/34/52/56/61, 1–60 lines
 * (receipts 1–1000), schema lengths (`max_length`, never silent truncation), RUT check digits (`invalid_rut`),
 * ISO-8859-1 representability of every text (`charset`), references on notes (`referencia`), a 33 with only
 * exempt lines (`not_allowed`), the guía de despacho's `traslado` (required on 52, `not_allowed` elsewhere) and
 * `transporte`, dates, quantities > 0, prices ≥ 0, ≤ 6 decimals, discounts 0–100, amounts and
 * totals ≤ `MAX_AMOUNT` (`maximum`).
 * Paths use the API's Spanish field names (`receptor.razon_social`, `items[0].nombre`). Returns `[]` when valid.
 *
 * @example
 * validateDocument({ ...input, receiver: { ...input.receiver, razonSocial: "Café ☕" } })
 * // [{ path: "receptor.razon_social", reason: "charset", message: "character \"☕\" (U+2615) cannot be …" }]
 */
export function validateDocument(input: DocumentInput): ValidationIssue[] {
  const list = new IssueList();
  if (!(TIPOS as readonly number[]).includes(input.tipo)) {
    list.add("tipo", "enum", `must be one of ${TIPOS.join(", ")}`);
    return list.issues;
  }
  if (!Number.isInteger(input.folio) || input.folio < 1 || input.folio > 9_999_999_999) {
    list.add("folio", "format", "a positive integer of up to 10 digits");
  }
  if (typeof input.fecha !== "string" || input.fecha === "") list.add("fecha", "required", "is required");
  else if (!isDate(input.fecha)) list.add("fecha", "format", "must be a date YYYY-MM-DD between 2000 and 2050");
  if (input.formaPago !== undefined && input.formaPago !== 1 && input.formaPago !== 2 && input.formaPago !== 3) {
    list.add("forma_pago", "enum", "must be 1 (contado), 2 (crédito) or 3 (sin costo)");
  }
  checkDecimal(list, "descuento_global_porcentaje", input.descuentoGlobalPorcentaje, { min: 0, max: 100, maxDecimals: 2 });
  checkText(list, "observaciones", input.observaciones);
  validateIssuer(list, input);
  validateReceiver(list, input);
  validateDispatch(list, input);
  validateItems(list, input);
  validateReferences(list, input);
  validateAmounts(list, input, list.issues);
  return list.issues;
}
