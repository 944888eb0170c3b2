/** Field-level checks shared by the document validators: presence, type, ISO-8859-1 charset, schema lengths, numbers. */
import { decimalPlaces, toDecimal } from "../decimal/index.js";
import { isValidRut } from "../rut/index.js";
import type { IssueReason, ValidationIssue } from "../errors/index.js";

/** Characters an SII XML text may hold: ISO-8859-1 without C0/C1 controls (tab, LF and CR allowed). */
const NOT_ALLOWED = /[^\t\n\r\u0020-\u007e\u00a0-\u00ff]/u;

export class IssueList {
  readonly issues: ValidationIssue[] = [];

  add(path: string, reason: IssueReason, message: string): void {
    this.issues.push({ path, reason, message });
  }
}

export interface TextRule {
  required?: boolean;
  max?: number;
  /**
   * Names, addresses, codes: one line. A line break there is never meant, and a CR could not even survive the
   * timbre (XML parsers turn it into LF, so a TED holding one would not verify) — refused with reason `format`.
   * Free texts (item description, observaciones) keep their line breaks.
   */
  singleLine?: boolean;
}

const LINE_BREAK_OR_TAB = /[\t\n\r]/;

const isAbsent = (value: unknown): boolean => value === undefined || value === null || value === "";

/**
 * Checks one text field (presence, type, ISO-8859-1 charset, length in characters); returns whether it is present.
 *
 * @example
 * checkText(list, "receptor.giro", "Gobierno", { required: true, max: 40 }) // true, no issue
 */
export function checkText(list: IssueList, path: string, value: unknown, rule: TextRule = {}): boolean {
  if (isAbsent(value) || (rule.required === true && typeof value === "string" && value.trim() === "")) {
    if (rule.required === true) list.add(path, "required", "is required");
    return false;
  }
  if (typeof value !== "string") {
    list.add(path, "type", "must be a string");
    return false;
  }
  const bad = NOT_ALLOWED.exec(value);
  if (bad) {
    const code = bad[0].codePointAt(0) ?? 0;
    const shown = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    list.add(path, "charset", `character ${JSON.stringify(bad[0])} (${shown}) cannot be written in ISO-8859-1 SII XML`);
  }
  if (rule.singleLine === true && LINE_BREAK_OR_TAB.test(value)) {
    list.add(path, "format", "line breaks and tabs are not allowed in this field");
  }
  if (rule.max !== undefined && [...value].length > rule.max) {
    list.add(path, "max_length", `at most ${rule.max} characters (has ${[...value].length})`);
  }
  return true;
}

/**
 * The issues of one text bound for SII XML on its own (`checkText`): for a caller that stores the text before any
 * document is built, so that a later emission never fails on a field its caller did not send.
 *
 * @example
 * siiTextIssues("razon_social", "Café ☕", { singleLine: true }) // [{ path: "razon_social", reason: "charset", … }]
 */
export function siiTextIssues(path: string, value: unknown, rule: TextRule = {}): ValidationIssue[] {
  const list = new IssueList();
  checkText(list, path, value, rule);
  return list.issues;
}

export interface DecimalRule {
  required?: boolean;
  /** Exclusive lower bound (quantities: > 0). */
  greaterThan?: number;
  /** Inclusive lower bound. */
  min?: number;
  /** Inclusive upper bound. */
  max?: number;
  maxDecimals: number;
  /** Digits before the point (`Dec12_6Type`: 12). */
  maxIntegerDigits?: number;
}

/**
 * Checks a JSON number or decimal string against bounds, decimals and integer digits.
 *
 * @example
 * checkDecimal(list, "items[0].cantidad", "2.5", { greaterThan: 0, maxDecimals: 6, maxIntegerDigits: 12 }) // no issue
 */
export function checkDecimal(list: IssueList, path: string, value: unknown, rule: DecimalRule): void {
  if (isAbsent(value)) {
    if (rule.required === true) list.add(path, "required", "is required");
    return;
  }
  if (typeof value !== "number" && typeof value !== "string") {
    list.add(path, "type", "must be a number");
    return;
  }
  let n: number;
  try {
    toDecimal(value);
    n = Number(value);
  } catch {
    list.add(path, "type", "must be a decimal number");
    return;
  }
  if (rule.greaterThan !== undefined && !(n > rule.greaterThan)) list.add(path, "minimum", `must be greater than ${rule.greaterThan}`);
  if (rule.min !== undefined && n < rule.min) list.add(path, "minimum", `must be at least ${rule.min}`);
  if (rule.max !== undefined && n > rule.max) list.add(path, "maximum", `must be at most ${rule.max}`);
  if (decimalPlaces(value) > rule.maxDecimals) list.add(path, "format", `at most ${rule.maxDecimals} decimals`);
  if (rule.maxIntegerDigits !== undefined && Math.abs(n) >= 10 ** rule.maxIntegerDigits) {
    list.add(path, "maximum", `at most ${rule.maxIntegerDigits} digits before the decimal point`);
  }
}

/**
 * Checks a RUT field: a one-line text (required unless `required: false`) with a valid check digit (`invalid_rut`);
 * returns whether it holds one.
 *
 * @example
 * checkRut(list, "transporte.chofer.rut", "12345678-5", { required: false }) // no issue
 */
export function checkRut(list: IssueList, path: string, value: unknown, rule: { required?: boolean } = {}): boolean {
  if (!checkText(list, path, value, { singleLine: true, required: rule.required ?? true })) return false;
  if (typeof value === "string" && !isValidRut(value)) {
    list.add(path, "invalid_rut", "is not a valid RUT");
    return false;
  }
  return typeof value === "string";
}
