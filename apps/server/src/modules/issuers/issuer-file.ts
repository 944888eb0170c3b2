/**
 * The SII's published list of authorised electronic issuers (API.md §14; BRIEF-intercambio §1.2), the file the SII
 * serves at `…/cvc_cgi/dte/ce_empresas_dwnld`: a header line, then one `;`-separated row per issuer
 * (`RUT;RAZON SOCIAL;NUMERO RESOLUCION;FECHA RESOLUCION;MAIL INTERCAMBIO;URL`), ISO-8859-1, no quoting, dates
 * `DD-MM-YYYY`. Real rows carry a space after the date and often a `;` at the end of the line. The full list is
 * about 1.7 million rows, so a row is read from the file's bytes when it is looked up.
 */
import { readFileSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { computeDv, tryParseRut } from "@timbre/core/rut";

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
const RUT = /^\d{1,8}-[\dkK]$/;
const NUMBER = /^\d*$/;
const DATE = /^(?:(\d{2})-(\d{2})-(\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?)?$/;
const EMAIL = /^[^\s@;,]+@[^\s@;,]+\.[^\s@;,]+$/;

interface Fields {
  rut: string;
  razon: string;
  numero: string;
  fecha: RegExpExecArray;
  mail: string;
}

/**
 * The fields of one row, or null. The last four are read from the end of the line, so a `;` inside a razón social
 * stays in it; a line closed by `;` is read without it first.
 */
function fieldsOf(text: string): Fields | null {
  const line = text.trimEnd();
  return (line.endsWith(";") ? fieldsOfLine(line.slice(0, -1)) : null) ?? fieldsOfLine(line);
}

function fieldsOfLine(line: string): Fields | null {
  const first = line.indexOf(";");
  const beforeUrl = line.lastIndexOf(";");
  const beforeMail = line.lastIndexOf(";", beforeUrl - 1);
  const beforeFecha = line.lastIndexOf(";", beforeMail - 1);
  const beforeNumero = line.lastIndexOf(";", beforeFecha - 1);
  if (first < 0 || beforeNumero <= first) return null;
  const rut = line.slice(0, first).trim();
  const numero = line.slice(beforeNumero + 1, beforeFecha).trim();
  const fecha = DATE.exec(line.slice(beforeFecha + 1, beforeMail).trim());
  if (!RUT.test(rut) || !NUMBER.test(numero) || fecha === null) return null;
  return { rut, razon: line.slice(first + 1, beforeNumero), numero, fecha, mail: line.slice(beforeMail + 1, beforeUrl) };
}

function issuerOfRow(f: Fields): Issuer {
  const [, day, month, year] = f.fecha;
  const correo = f.mail.trim().toLowerCase();
  return {
    rut: f.rut.toUpperCase(),
    razonSocial: f.razon.trim(),
    resolucion: year ? { numero: f.numero === "" ? 0 : Number(f.numero), fecha: `${year}-${month}-${day}` } : null,
    correoIntercambio: EMAIL.test(correo) ? correo : null,
  };
}

/**
 * Reads the list's bytes; throws {@link IssuerFileError} naming the first line that is not a row of the SII's list
 * (a wrong header, a row whose fields do not fit, a RUT whose check digit is wrong). The bytes are kept as they are,
 * with a sorted index of where each RUT's line starts (a `Map` of 1.7 million entries takes seconds to fill and
 * several times the memory), so the list costs about its own size; a list saved again as UTF-8 (by someone's
 * spreadsheet) is read as UTF-8.
 */
export function parseIssuerFile(bytes: Uint8Array): IssuerSource {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const encoding = isUtf8(buf) ? "utf8" : "latin1";
  const lineAt = (from: number): { text: string; next: number } => {
    const nl = buf.indexOf(10, from);
    const end = nl < 0 ? buf.length : nl;
    return { text: buf.toString(encoding, from, end > from && buf[end - 1] === 13 ? end - 1 : end), next: end + 1 };
  };
  let at = encoding === "utf8" && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let number = 0;
  let header = "";
  while (at < buf.length && header === "") {
    const line = lineAt(at);
    number++;
    at = line.next;
    header = line.text.trim().toUpperCase().replace(/;$/, "");
  }
  if (header !== HEADER) throw new IssuerFileError(`line ${Math.max(number, 1)}: not the SII's list of electronic issuers (expected the header "${HEADER}")`);
  // Each row as (RUT body << 32 | where its line starts): one native numeric sort, then a binary search per lookup.
  let index = new BigUint64Array(1 << 16);
  let rows = 0;
  while (at < buf.length) {
    const from = at;
    const line = lineAt(at);
    number++;
    at = line.next;
    if (line.text.trim() === "") continue;
    const f = fieldsOf(line.text);
    if (f === null) throw new IssuerFileError(`line ${number}: not a row of RUT;RAZON SOCIAL;NUMERO RESOLUCION;FECHA RESOLUCION;MAIL INTERCAMBIO;URL`);
    const [body = "", dv = ""] = f.rut.split("-");
    if (/^0+$/.test(body) || computeDv(body) !== dv.toUpperCase()) throw new IssuerFileError(`line ${number}: ${f.rut} is not a valid RUT (check digit)`);
    if (rows === index.length) {
      const grown = new BigUint64Array(index.length * 2);
      grown.set(index);
      index = grown;
    }
    index[rows++] = (BigInt(Number(body)) << 32n) | BigInt(from);
  }
  const sorted = index.slice(0, rows).sort();
  return {
    lookup(rut) {
      const parsed = tryParseRut(rut);
      if (!parsed) return null;
      // The last row of that RUT (a repeated RUT: the later line): the first entry above (body, every offset), less one.
      const above = (BigInt(Number(parsed.body)) << 32n) | 0xffffffffn;
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((sorted[mid] as bigint) <= above) lo = mid + 1;
        else hi = mid;
      }
      const found = lo > 0 ? (sorted[lo - 1] as bigint) : null;
      if (found === null || found >> 32n !== BigInt(Number(parsed.body))) return null;
      const f = fieldsOf(lineAt(Number(found & 0xffffffffn)).text);
      return f === null ? null : issuerOfRow(f);
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
