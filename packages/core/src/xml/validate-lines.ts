/** Line and reference checks (API paths `items[i].*`, `referencias[i].*`). */
import { ADDITIONAL_TAX_TIPOS, ADDITIONAL_TAXES, additionalTax } from "../document/additional-taxes.js";
import {
  isDispatchGuide, isExemptTipo, isKnownReferenceType, isNote, isReceipt, REFERENCE_DATE_RANGE, taxDocumentTipo, type DocumentInput,
} from "../document/types.js";
import { computeTotals } from "../totals/index.js";
import { checkDecimal, checkText, type IssueList } from "./check-field.js";
import { isDate } from "./constants.js";

/**
 * Line checks: count, texts, quantities, prices, discounts, the "33 with only exempt lines" rule.
 *
 * @example
 * const list = new IssueList(); validateItems(list, input); list.issues // [{ path: "items[0].cantidad", … }]
 */
export function validateItems(list: IssueList, input: DocumentInput): void {
  if (!Array.isArray(input.items) || input.items.length === 0) {
    list.add("items", "min_items", "at least one line");
    return;
  }
  const max = isReceipt(input.tipo) ? 1000 : 60;
  if (input.items.length > max) list.add("items", "max_items", `at most ${max} lines`);
  input.items.forEach((item, i) => {
    const p = `items[${i}]`;
    checkText(list, `${p}.nombre`, item.nombre, { singleLine: true, required: true, max: 80 });
    checkText(list, `${p}.descripcion`, item.descripcion, { max: 1000 });
    checkText(list, `${p}.unidad`, item.unidad, { singleLine: true, max: 4 });
    checkText(list, `${p}.codigo`, item.codigo, { singleLine: true, max: 35 });
    // QtyItem / PrcItem are Dec12_6Type; DescuentoPct is PctType (2 decimals).
    checkDecimal(list, `${p}.cantidad`, item.cantidad, { required: true, greaterThan: 0, maxDecimals: 6, maxIntegerDigits: 12 });
    checkDecimal(list, `${p}.precio`, item.precio, { required: true, min: 0, maxDecimals: 6, maxIntegerDigits: 12 });
    checkDecimal(list, `${p}.descuento_porcentaje`, item.descuentoPorcentaje, { min: 0, max: 100, maxDecimals: 2 });
    if (item.exento !== undefined && typeof item.exento !== "boolean") list.add(`${p}.exento`, "type", "must be a boolean");
    if (item.impuestoAdicional !== undefined) validateAdditionalTax(list, input, i);
  });
  if (input.tipo === 33 && input.items.every((item) => item.exento === true)) {
    list.add("tipo", "not_allowed", "a 33 whose lines are all exempt must be issued as 34 (factura exenta)");
  }
}

/**
 * An additional tax on line `i`: a known code, on a taxable line of a 33/56/61 with net prices and no global
 * discount (with either, which part of the discounted or gross amount is the tax's base would be a guess).
 */
function validateAdditionalTax(list: IssueList, input: DocumentInput, i: number): void {
  const path = `items[${i}].impuesto_adicional`;
  const code = input.items[i]?.impuestoAdicional;
  if (typeof code !== "number" || additionalTax(code) === undefined) {
    list.add(path, "enum", `must be one of ${ADDITIONAL_TAXES.map((t) => `${t.codigo} (${t.nombre}, ${t.tasa} %)`).join(", ")}`);
  } else if (!ADDITIONAL_TAX_TIPOS.includes(input.tipo)) {
    const why = isReceipt(input.tipo)
      ? "a boleta's prices already include every tax"
      : isDispatchGuide(input.tipo)
        ? "a guía de despacho carries none; the factura that bills it does"
        : "an exempt document carries no taxes";
    list.add(path, "not_allowed", `additional taxes go on facturas (33) and their notes (56, 61): ${why}`);
  } else if (input.items[i]?.exento === true || isExemptTipo(input.tipo)) {
    list.add(path, "not_allowed", "an exempt line carries no additional tax");
  } else if (input.preciosBrutos === true) {
    list.add(path, "not_allowed", "with additional taxes, prices must be net (precios_brutos false)");
  } else if (Number(input.descuentoGlobalPorcentaje ?? 0) > 0) {
    list.add(path, "not_allowed", "with additional taxes, give the discount on the lines (descuento_porcentaje), not as a global discount");
  }
}

/**
 * Why a CodRef does not fit (formato DTE, Referencia/CodRef; BRIEF §11), or null: it is for notes only; "corrige
 * texto" (2) for credit notes only; it sits on the tax document the note modifies (not on an orden de compra,
 * `SET` or free text); a debit note annuls (1) only a credit note, and a credit note does not annul one.
 */
function codRefProblem(tipo: number, codigo: 1 | 2 | 3, referenced: number | null): string | null {
  if (!isNote(tipo)) return "CodRef is for credit and debit notes (56, 61)";
  if (codigo === 2 && tipo !== 61) return "corrige texto (2) is for credit notes (61)";
  if (referenced === null) return "CodRef belongs on the tax document the note modifies, not on an information reference";
  const creditNote = referenced === 61 || referenced === 60;
  if (codigo === 1 && tipo === 56 && !creditNote) return "a debit note annuls (1) only a credit note";
  if (codigo === 1 && tipo === 61 && creditNote) return "a credit note cannot annul a credit note";
  return null;
}

/**
 * Reference checks: required on notes (`referencia`), CodRef on notes, lengths, dates, one document when annulling.
 *
 * @example
 * const list = new IssueList(); validateReferences(list, { ...input, tipo: 61, referencias: [] });
 * list.issues // [{ path: "referencia", reason: "required", … }]
 */
export function validateReferences(list: IssueList, input: DocumentInput): void {
  const refs = input.referencias ?? [];
  if (!Array.isArray(refs)) {
    list.add("referencias", "type", "must be a list");
    return;
  }
  if (isNote(input.tipo) && refs.length === 0) {
    list.add("referencia", "required", "credit and debit notes must reference the document they modify");
  }
  if (refs.length > 40) list.add("referencias", "max_items", "at most 40 references");
  refs.forEach((r, i) => {
    const p = `referencias[${i}]`;
    const tipoDoc = typeof r.tipoDoc === "number" ? String(r.tipoDoc) : r.tipoDoc;
    const folio = typeof r.folio === "number" ? String(r.folio) : r.folio;
    if (checkText(list, `${p}.tipo_doc`, tipoDoc, { singleLine: true, required: true, max: 3 }) && !isKnownReferenceType(tipoDoc ?? "")) {
      list.add(`${p}.tipo_doc`, "enum", "a numeric TpoDocRef must be a code of the SII's list (tax documents 30–112, 801–815, 820); use letters for other documents");
    }
    checkText(list, `${p}.folio`, folio, { singleLine: true, required: true, max: 18 });
    // FolioRef of a tax document is its number; 0 only with IndGlobal (not offered), letters only for 801–820/free
    // types (formato DTE, Referencias, FolioRef).
    if (typeof folio === "string" && folio !== "" && taxDocumentTipo(tipoDoc ?? "") !== null && !/^0*[1-9]\d*$/.test(folio)) {
      list.add(`${p}.folio`, "format", "a tax document's folio is a whole number from 1");
    }
    checkText(list, `${p}.razon`, r.razon, { singleLine: true, max: 90 });
    if (!isReceipt(input.tipo) || r.fecha !== undefined) {
      if (r.fecha === undefined || r.fecha === "") list.add(`${p}.fecha`, "required", "is required");
      else if (typeof r.fecha !== "string" || !isDate(r.fecha)) list.add(`${p}.fecha`, "format", "must be a date YYYY-MM-DD");
      else if (r.fecha < REFERENCE_DATE_RANGE.min) list.add(`${p}.fecha`, "minimum", `the SII takes reference dates from ${REFERENCE_DATE_RANGE.min}`);
      else if (r.fecha > REFERENCE_DATE_RANGE.max) list.add(`${p}.fecha`, "maximum", `the SII takes reference dates up to ${REFERENCE_DATE_RANGE.max}`);
    }
    if (r.codigo !== undefined && r.codigo !== 1 && r.codigo !== 2 && r.codigo !== 3) {
      list.add(`${p}.codigo`, "enum", "must be 1 (anula), 2 (corrige texto) or 3 (corrige montos)");
    } else if (r.codigo !== undefined) {
      const problem = codRefProblem(input.tipo, r.codigo, taxDocumentTipo(tipoDoc ?? ""));
      if (problem) list.add(`${p}.codigo`, "not_allowed", problem);
    }
  });
  if (isNote(input.tipo) && refs.length > 0 && !refs.some((r) => r.codigo !== undefined)) {
    list.add(`referencias[${refs.length - 1}].codigo`, "required", "a note must say whether it annuls (1), corrects text (2) or amounts (3)");
  }
  const exclusive = refs.some((r) => r.codigo === 1 || r.codigo === 2);
  if (exclusive && refs.filter((r) => r.codigo !== undefined).length > 1) {
    list.add("referencias", "not_allowed", "a note that annuls or corrects text references exactly one document");
  }
}

/**
 * The largest amount a document may carry, in pesos: 2^53 − 1. The SII allows 18 digits, but beyond this JSON
 * numbers (and JavaScript) are no longer exact, so a total would be sent wrong by some pesos — or not be sendable.
 */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/**
 * Amount checks, once lines and discounts are valid: every line's `cantidad × precio` and every total at most
 * `MAX_AMOUNT` (reason `maximum`). Issues on those fields are given in `known`: their amounts cannot be computed.
 *
 * @example
 * const list = new IssueList(); validateAmounts(list, { ...input, items: [{ nombre: "x", cantidad: 1e12, precio: 1e12 }] }, []);
 * list.issues // [{ path: "items[0]", reason: "maximum", … }]
 */
export function validateAmounts(list: IssueList, input: DocumentInput, known: readonly { path: string }[]): void {
  if (known.some((i) => /^(items|descuento_global_porcentaje|referencias)/.test(i.path))) return;
  const totals = computeTotals(input);
  let lineTooLarge = false;
  totals.lines.forEach((line, i) => {
    if (Number.isSafeInteger(line.montoBruto)) return;
    lineTooLarge = true;
    list.add(`items[${i}]`, "maximum", `cantidad × precio must not exceed ${MAX_AMOUNT} pesos`);
  });
  const sums = [totals.montoNeto, totals.montoExento, totals.montoIva, totals.montoTotal];
  if (!lineTooLarge && !sums.every(Number.isSafeInteger)) list.add("items", "maximum", `the document's total must not exceed ${MAX_AMOUNT} pesos`);
}
