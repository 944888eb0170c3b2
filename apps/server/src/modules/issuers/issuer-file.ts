/**
 * The SII's published list of authorised electronic issuers (API.md §14; BRIEF-intercambio §1.2), the file the SII
 * serves at `…/cvc_cgi/dte/ce_empresas_dwnld`: a header line, then one `;`-separated row per issuer
 * (`RUT;RAZON SOCIAL;NUMERO RESOLUCION;FECHA RESOLUCION;MAIL INTERCAMBIO;URL`), ISO-8859-1, no quoting, dates
 * `DD-MM-YYYY`. Real rows carry a space after the date and often a `;` at the end of the line. The full list is
 * about 1.7 million rows, so each row is kept as its line and read when it is looked up.
 */
import { readFileSync } from "node:fs";
import { isValidRut, tryParseRut } from "@timbre/core/rut";

/** One issuer of the list. */
export interface Issuer {
  rut: string;
  razonSocial: string;
  /** The SII resolution that authorised it (`numero` 0: authorised in certification only); null when the row has none. */
  resolucion: { numero: number; fecha: string } | null;
  /** Its *correo de intercambio*; null when it registered none. */
  correoIntercambio: string | null;
}

/** Where one environment's list is read from: the published file today; a daily download would be another source. */
export interface IssuerSource {
  lookup(rut: string): Issuer | null;
}

/** A list that could not be read: the message names the line. */
export class IssuerFileError extends Error {
  override name = "IssuerFileError";
}

const HEADER = "RUT;RAZON SOCIAL;NUMERO RESOLUCION;FECHA RESOLUCION;MAIL INTERCAMBIO;URL";
// The razón social is greedy: the fields after it are anchored to the end of the line, so a `;` inside a name stays in it.
const ROW = /^\s*(\d{1,8}-[\dkK])\s*;(.*);\s*(\d*)\s*;\s*(?:(\d{2})-(\d{2})-(\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?)?\s*;([^;]*);([^;]*);?\s*$/;
const EMAIL = /^[^\s@;,]+@[^\s@;,]+\.[^\s@;,]+$/;

/** The file's text: UTF-8 when it is valid UTF-8 (a list saved again by someone), else ISO-8859-1 as the SII serves it. */
function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}

function readRow(line: string): Issuer | null {
  const m = ROW.exec(line);
  if (!m) return null;
  const [, rut = "", razon = "", numero = "", day, month, year, mail = ""] = m;
  const fecha = year ? `${year}-${month}-${day}` : null;
  const correo = mail.trim().toLowerCase();
  const parsed = tryParseRut(rut);
  return {
    rut: parsed ? `${parsed.body}-${parsed.dv}` : rut.toUpperCase(),
    razonSocial: razon.trim(),
    resolucion: fecha === null ? null : { numero: numero === "" ? 0 : Number(numero), fecha },
    correoIntercambio: EMAIL.test(correo) ? correo : null,
  };
}

/**
 * Reads the list's bytes; throws {@link IssuerFileError} naming the first line that is not a row of the SII's list
 * (a wrong header, a row whose fields do not fit, a RUT whose check digit is wrong).
 */
export function parseIssuerFile(bytes: Uint8Array): IssuerSource {
  const lines = decode(bytes).replace(/^\uFEFF/, "").split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.trim() !== "");
  const header = (lines[headerAt] ?? "").trim().toUpperCase().replace(/;$/, "");
  if (header !== HEADER) throw new IssuerFileError(`line ${headerAt + 1}: not the SII's list of electronic issuers (expected the header "${HEADER}")`);
  const rows = new Map<string, string>();
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "") continue;
    const row = readRow(line);
    if (row === null) throw new IssuerFileError(`line ${i + 1}: not a row of RUT;RAZON SOCIAL;NUMERO RESOLUCION;FECHA RESOLUCION;MAIL INTERCAMBIO;URL`);
    if (!isValidRut(row.rut)) throw new IssuerFileError(`line ${i + 1}: ${row.rut} is not a valid RUT (check digit)`);
    rows.set(row.rut, line);
  }
  return {
    lookup(rut) {
      const parsed = tryParseRut(rut);
      const line = parsed ? rows.get(`${parsed.body}-${parsed.dv}`) : undefined;
      return line === undefined ? null : readRow(line);
    },
  };
}

/** Reads `SII_ISSUERS_FILE`; throws an Error naming the setting when the file is missing or malformed. */
export function loadIssuerFile(path: string): IssuerSource {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(`SII_ISSUERS_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  try {
    return parseIssuerFile(bytes);
  } catch (error) {
    if (error instanceof IssuerFileError) throw new Error(`SII_ISSUERS_FILE: ${path}, ${error.message}`);
    throw error;
  }
}

/**
 * Each environment's list from the configuration: the one published file serves both environments (the SII's
 * certificación and producción lists are downloaded from their own hosts; a daily download would fill each here).
 */
export function loadIssuerLists(issuersFile: string | null): Record<"test" | "live", IssuerSource | null> {
  const file = issuersFile === null ? null : loadIssuerFile(issuersFile);
  return { test: file, live: file };
}
