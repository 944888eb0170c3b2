/** Shared pieces of the receiver's answers (BRIEF-intercambio §2): document keys, text limits, XML writing. */
import { TimbreError } from "../errors/index.js";
import { isValidRut, normalizeRut } from "../rut/index.js";
import { isDate, isTimestamp } from "../xml/constants.js";
import { escapeText } from "../xml/escape.js";

/** Tipos the answer schemas allow (`DTEType`/`DocType` of SiiTypes_v10.xsd): 43 and 110–112 cannot be answered in XML. */
export const XML_ANSWERABLE_TIPOS: readonly number[] = [33, 34, 46, 52, 56, 61];

/**
 * Whether `RespuestaDTE`/`EnvioRecibos` may name a document of this tipo.
 *
 * @example
 * isXmlAnswerable(33) // true
 * isXmlAnswerable(43) // false
 */
export function isXmlAnswerable(tipo: number): boolean {
  return XML_ANSWERABLE_TIPOS.includes(tipo);
}

/** The identity of a received document as every answer repeats it. */
export interface AnsweredDocument {
  tipo: number;
  folio: number;
  /** `FchEmis`, `YYYY-MM-DD`. */
  fecha: string;
  rutEmisor: string;
  rutReceptor: string;
  montoTotal: number;
}

export const fail = (message: string, field: string): never => {
  throw new TimbreError("VALIDATION_ERROR", message, { details: { field, reason: "format" } });
};

export function rut(value: string, field: string): string {
  if (!isValidRut(value)) fail(`${field} is not a valid RUT: ${JSON.stringify(value)}`, field);
  return normalizeRut(value);
}

export function timestamp(value: string, field: string): string {
  if (!isTimestamp(value)) fail(`${field} must be YYYY-MM-DDTHH:MM:SS`, field);
  return value;
}

export function positive(value: number, digits: number, field: string): number {
  if (!Number.isInteger(value) || value < 1 || value >= 10 ** digits) fail(`${field} must be an integer from 1 to ${digits} digits`, field);
  return value;
}

/**
 * Text for an answer field: characters outside ISO-8859-1 become `?` (the file is Latin-1), control characters
 * spaces, cut to `max` characters, escaped. Empty input stays empty.
 */
export function text(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, " ").replace(/[^\u0000-\u00ff]/gu, "?");
  return escapeText([...clean].slice(0, max).join("").trim());
}

/** `<TipoDTE>…<MntTotal>` (or `TipoDoc` for a Recibo), checked: the first six fields of every answer row. */
export function documentFields(d: AnsweredDocument, tipoTag: "TipoDTE" | "TipoDoc", field: string): string {
  if (!isXmlAnswerable(d.tipo)) fail(`${field}: tipo ${d.tipo} cannot be answered in XML (only ${XML_ANSWERABLE_TIPOS.join(", ")})`, `${field}.tipo`);
  positive(d.folio, 10, `${field}.folio`);
  if (!isDate(d.fecha)) fail(`${field}.fecha must be YYYY-MM-DD`, `${field}.fecha`);
  if (!Number.isInteger(d.montoTotal) || d.montoTotal < 0 || d.montoTotal >= 1e18) fail(`${field}.montoTotal must be a non-negative integer`, `${field}.montoTotal`);
  return (
    `<${tipoTag}>${d.tipo}</${tipoTag}><Folio>${d.folio}</Folio><FchEmis>${d.fecha}</FchEmis>` +
    `<RUTEmisor>${rut(d.rutEmisor, `${field}.rutEmisor`)}</RUTEmisor><RUTRecep>${rut(d.rutReceptor, `${field}.rutReceptor`)}</RUTRecep>` +
    `<MntTotal>${d.montoTotal}</MntTotal>`
  );
}

/** Contact fields of a Caratula (`NmbContacto`, `FonoContacto`, `MailContacto`), each optional. */
export interface AnswerContact {
  nombre?: string;
  fono?: string;
  email?: string;
}

export function contactFields(contact: AnswerContact = {}): string {
  const out: string[] = [];
  const add = (tag: string, value: string | undefined, max: number) => {
    const v = value === undefined ? "" : text(value, max);
    if (v !== "") out.push(`<${tag}>${v}</${tag}>`);
  };
  add("NmbContacto", contact.nombre, 40);
  add("FonoContacto", contact.fono, 40);
  add("MailContacto", contact.email, 80);
  return out.join("");
}

const ID = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

export function xmlId(value: string, field: string): string {
  if (!ID.test(value)) fail(`${field} must be an XML ID (a letter or _ first, at most 64 characters)`, field);
  return value;
}
