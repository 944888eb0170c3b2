/**
 * Every problem of a liquidación-factura (43) at once (BRIEF-doctypes §1). Paths are the API's: the settled documents
 * and commissions live under `liquidacion` (`liquidacion.documentos[0].monto`, `liquidacion.comisiones[0].monto_neto`).
 * A 56/61 that repeats a 43's content must reference the 43 and, being a `Documento`, carries no negative amount
 * (`MontoType`: negatives are allowed in Liquidaciones-Factura only, formato DTE change 2005-09-22 #4).
 */
import { isLiquidationNote, type LiquidationDocumentInput } from "../document/liquidation-document.js";
import type { ValidationIssue } from "../errors/index.js";
import { checkDecimal, checkText, IssueList } from "./check-field.js";
import { isDate } from "./constants.js";
import { validateIssuer, validateReceiver } from "./validate-parties.js";
import { validateReferences } from "./validate-lines.js";

/** `ValorType`: up to 18 digits, signed. */
const MAX_VALUE = 999_999_999_999_999;

const isAmount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && Math.abs(v) <= MAX_VALUE;

/**
 * Checks a liquidación-factura; returns `[]` when valid.
 *
 * @example
 * validateLiquidationDocument({ ...input, documentos: [] })
 * // [{ path: "liquidacion.documentos", reason: "min_items", message: "at least one settled document" }]
 */
export function validateLiquidationDocument(input: LiquidationDocumentInput): ValidationIssue[] {
  const list = new IssueList();
  if (!Number.isInteger(input.folio) || input.folio < 1 || input.folio > 9_999_999_999) {
    list.add("folio", "format", "a positive integer of up to 10 digits");
  }
  if (typeof input.fecha !== "string" || !isDate(input.fecha)) list.add("fecha", "format", "must be a date YYYY-MM-DD");
  if (input.formaPago !== undefined && ![1, 2, 3].includes(input.formaPago)) {
    list.add("forma_pago", "enum", "must be 1 (contado), 2 (crédito) or 3 (sin costo)");
  }
  // As a factura: the same issuer rules, the principal's giro, address and comuna required, `DirOrigen` required.
  const note = input.tipo !== 43;
  if (note && (input.referencias ?? []).length > 0 && !isLiquidationNote(input)) list.add("referencia", "required", "a note carrying settled documents must reference the liquidación-factura (43) it modifies");
  const asFactura = { ...input, tipo: input.tipo === 43 ? (33 as const) : input.tipo, items: [] };
  validateIssuer(list, asFactura);
  checkText(list, "emisor.direccion", input.issuer?.direccion, { required: true, singleLine: true, max: 70 });
  validateReceiver(list, asFactura);
  validateReferences(list, asFactura);
  const amount = (path: string, v: unknown) => {
    if (!isAmount(v)) list.add(path, "type", note ? "whole pesos" : "whole pesos, may be negative");
    else if (note && v < 0) list.add(path, "minimum", "a note on a 43 is a Documento: its amounts may not be negative");
  };

  const docs = Array.isArray(input.documentos) ? input.documentos : [];
  if (docs.length === 0) list.add("liquidacion.documentos", "min_items", "at least one settled document");
  if (docs.length > 60) list.add("liquidacion.documentos", "max_items", "at most 60 settled documents");
  docs.forEach((d, i) => {
    const p = `liquidacion.documentos[${i}]`;
    if (!Number.isInteger(d.tipoDocLiq) || d.tipoDocLiq < 1 || d.tipoDocLiq > 999) {
      list.add(`${p}.tipo_doc_liq`, "format", "the settled document's tipo (30, 33, 35, 39, 56…) or 99");
    }
    checkText(list, `${p}.nombre`, d.nombre, { required: true, singleLine: true, max: 80 });
    checkText(list, `${p}.descripcion`, d.descripcion, { max: 1000 });
    checkDecimal(list, `${p}.cantidad`, d.cantidad, { greaterThan: 0, maxDecimals: 6, maxIntegerDigits: 12 });
    amount(`${p}.monto`, d.monto);
  });
  const commissions = input.comisiones ?? [];
  if (commissions.length > 20) list.add("liquidacion.comisiones", "max_items", "at most 20 commission lines");
  commissions.forEach((c, i) => {
    const p = `liquidacion.comisiones[${i}]`;
    if (c.tipo !== "C" && c.tipo !== "O") list.add(`${p}.tipo`, "enum", "C (comisión) or O (otros cargos)");
    checkText(list, `${p}.descripcion`, c.descripcion, { required: true, singleLine: true, max: 60 });
    checkDecimal(list, `${p}.tasa_comision`, c.tasa, { min: 0, max: 100, maxDecimals: 2 });
    amount(`${p}.monto_neto`, c.montoNeto);
    if (c.montoExento !== undefined) amount(`${p}.monto_exento`, c.montoExento);
  });
  return list.issues;
}
