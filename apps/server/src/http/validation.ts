/**
 * TypeBox value errors → API validation issues: JSON pointers become `receptor.rut` / `items[0].precio`,
 * error kinds become the reasons of API.md §3, one issue per path (the first, most specific one).
 */
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import type { TSchema, Static } from "@sinclair/typebox";
import type { IssueReason, ValidationIssue } from "@timbre/core/errors";
import { validationError } from "./errors.js";

export interface RawValueError {
  type: number;
  path: string;
  value: unknown;
  message: string;
  schema?: unknown;
}

/** Formats whose failure has its own reason. */
const FORMAT_REASONS: Record<string, IssueReason> = { rut: "invalid_rut" };

export function pointerToPath(pointer: string): string {
  const parts = pointer.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out = "";
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out === "" ? part : `.${part}`;
  return out;
}

/**
 * The schema keyword listing the fields a request may not send back although its resource shows them (`id`,
 * `created_at`, `certificate` in a business PUT): reason `not_allowed` instead of `unknown` (API.md §1).
 */
export const READ_ONLY_KEYWORD = "x-read-only";

/** The name of the field an `ObjectAdditionalProperties` error is about: the last segment of its pointer. */
function lastSegment(pointer: string): string {
  const parts = pointer.split("/");
  return (parts[parts.length - 1] ?? "").replace(/~1/g, "/").replace(/~0/g, "~");
}

function isReadOnly(error: RawValueError): boolean {
  const listed = (error.schema as Record<string, unknown> | undefined)?.[READ_ONLY_KEYWORD];
  return Array.isArray(listed) && listed.includes(lastSegment(error.path));
}

function reasonOf(error: RawValueError): IssueReason {
  // Before `required`: an unexpected property's value is whatever was sent, `undefined` never.
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return isReadOnly(error) ? "not_allowed" : "unknown";
  if (error.value === undefined || error.type === ValueErrorType.ObjectRequiredProperty) return "required";
  switch (error.type) {
    case ValueErrorType.ArrayMinItems:
      return "min_items";
    case ValueErrorType.ArrayMaxItems:
      return "max_items";
    case ValueErrorType.StringMinLength:
      return "min_length";
    case ValueErrorType.StringMaxLength:
      return "max_length";
    case ValueErrorType.StringFormat:
      return FORMAT_REASONS[formatOf(error.schema)] ?? "format";
    case ValueErrorType.StringPattern:
      return "format";
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return "minimum";
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return "maximum";
    case ValueErrorType.Literal:
      return "enum";
    case ValueErrorType.Union:
      return unionReason(error);
    default:
      return "type";
  }
}

function formatOf(schema: unknown): string {
  return typeof schema === "object" && schema !== null && "format" in schema && typeof schema.format === "string" ? schema.format : "";
}

/** The allowed values of a union of literals, or null when the schema is something else. */
function literalsOf(schema: unknown): unknown[] | null {
  const members = (schema as { anyOf?: TSchema[] } | undefined)?.anyOf ?? [];
  return members.length > 0 && members.every((m) => "const" in m) ? members.map((m) => m.const as unknown) : null;
}

/**
 * The member of a union a value is meant for: the only non-null one, or the only one of the value's JSON type
 * (`"81303347"` → the string member of string-or-integer). Its errors are the useful ones.
 */
function memberFor(schema: unknown, value: unknown): TSchema | undefined {
  const members = (schema as { anyOf?: TSchema[] } | undefined)?.anyOf ?? [];
  const nonNull = members.filter((m) => m.type !== "null");
  if (nonNull.length === 1) return nonNull[0];
  const types = typeof value === "number" ? (Number.isInteger(value) ? ["integer", "number"] : ["number"]) : [typeof value];
  const sameType = nonNull.filter((m) => types.includes(m.type as string));
  return sameType.length === 1 ? sameType[0] : undefined;
}

/**
 * A union of literals is an enum — or a type error when the value is not even of the literals' type (`"33"` for
 * 33); otherwise the member meant for the value says what is wrong with it.
 */
function unionReason(error: RawValueError): IssueReason {
  const literals = literalsOf(error.schema);
  if (literals) return literals.some((v) => typeof v === typeof error.value) ? "enum" : "type";
  if (error.value === null) return "type";
  const member = memberFor(error.schema, error.value);
  const inner = member ? Value.Errors(member, error.value).First() : undefined;
  return inner ? reasonOf({ ...inner, path: error.path }) : "type";
}

const TYPE_NAMES: Record<string, string> = { string: "a string", integer: "an integer", number: "a number", boolean: "true or false", object: "an object", array: "an array", null: "null" };

/** "must be a string or an integer" for a union of types, or null when a member is not a plain type. */
function unionTypesMessage(schema: unknown): string | null {
  const members = (schema as { anyOf?: TSchema[] } | undefined)?.anyOf ?? [];
  const names = members.map((m) => TYPE_NAMES[m.type as string]);
  if (names.length === 0 || names.some((n) => n === undefined)) return null;
  return `must be ${names.slice(0, -1).join(", ")}${names.length > 1 ? " or " : ""}${names[names.length - 1]}`;
}

const MESSAGES: Partial<Record<IssueReason, string>> = {
  required: "is required",
  unknown: "is not a field of this request",
  not_allowed: "is read-only: it cannot be sent",
};

/** A calendar date `YYYY-MM-DD` (month 01–12, day 01–31; the calendar itself is checked where the date is used). */
export const DATE_PATTERN = "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$";

const PATTERN_MESSAGES: Record<string, string> = { [DATE_PATTERN]: "must be a date YYYY-MM-DD" };
const FORMAT_MESSAGES: Record<string, string> = { rut: "is not a valid RUT (digits, a hyphen and the check digit: 76192083-9)" };

/** Our words where the validator's would name its own machinery ("Expected union value", a regex). */
function messageOf(error: RawValueError, reason: IssueReason): string {
  const literals = literalsOf(error.schema);
  if (literals) return `must be one of ${literals.map((v) => JSON.stringify(v)).join(", ")}`;
  if (error.type === ValueErrorType.Union) return unionTypesMessage(error.schema) ?? error.message;
  if (error.type === ValueErrorType.StringPattern) {
    const pattern = (error.schema as { pattern?: string }).pattern ?? "";
    return PATTERN_MESSAGES[pattern] ?? "has the wrong format";
  }
  if (error.type === ValueErrorType.StringFormat) return FORMAT_MESSAGES[formatOf(error.schema)] ?? "has the wrong format";
  return MESSAGES[reason] ?? error.message;
}

/** A union holding a value meant for one of its members (a nullable field, string-or-integer): that member's errors. */
function expandUnion(error: RawValueError): RawValueError[] | null {
  if (error.type !== ValueErrorType.Union || error.value === null || literalsOf(error.schema)) return null;
  const member = memberFor(error.schema, error.value);
  if (!member) return null;
  return [...Value.Errors(member, error.value)].flatMap((e) => {
    const inner = { ...e, path: error.path + e.path };
    return expandUnion(inner) ?? [inner];
  });
}

/** One issue per path, in document order. */
export function issuesFromValueErrors(errors: Iterable<RawValueError>): ValidationIssue[] {
  const byPath = new Map<string, ValidationIssue>();
  const flat = [...errors].flatMap((e) => expandUnion(e) ?? [e]);
  for (const error of flat) {
    const path = pointerToPath(error.path) || "body";
    // Union members report their own mismatches first; the union verdict (enum) is the useful one.
    const reason = reasonOf(error);
    const existing = byPath.get(path);
    if (existing && !(reason === "enum" && existing.reason === "type")) continue;
    byPath.set(path, { path, reason, message: messageOf(error, reason) });
  }
  return [...byPath.values()];
}

/**
 * Every field of `value` that `schema` does not have (reason `unknown`) or keeps read-only (`not_allowed`), nested
 * objects and arrays included, all at once. Objects must say `additionalProperties: false` (every request schema does).
 */
export function unknownFieldIssues(schema: TSchema, value: unknown): ValidationIssue[] {
  return issuesFromValueErrors(Value.Errors(schema, value)).filter((i) => i.reason === "unknown" || i.reason === "not_allowed");
}

/** The fields of a multipart form that its route does not take (reason `unknown`), once each. */
export function unknownFormFields(form: FormData, allowed: readonly string[]): ValidationIssue[] {
  return [...new Set(form.keys())].filter((name) => !allowed.includes(name)).map((path) => ({ path, reason: "unknown", message: MESSAGES.unknown ?? "" }));
}

/** Validates `value` against `schema`; throws 422 VALIDATION_ERROR listing every issue. */
export function assertValid<S extends TSchema>(schema: S, value: unknown): Static<S> {
  if (Value.Check(schema, value)) return value;
  throw validationError(issuesFromValueErrors(Value.Errors(schema, value)));
}
