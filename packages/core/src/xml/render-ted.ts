/** The TED (timbre electrónico) in file and canonical form, stamped with the CAF key (BRIEF §5). */
import { sign } from "node:crypto";
import type { Caf } from "../caf/types.js";
import type { DocumentInput } from "../document/types.js";
import { TimbreError } from "../errors/index.js";
import { normalizeRut } from "../rut/index.js";
import { canonicalizeXml } from "../signature/canonical.js";
import type { Totals } from "../totals/index.js";
import { isTimestamp, SII_NS } from "./constants.js";
import { DualWriter } from "./dual-writer.js";
import { encodeLatin1 } from "./latin1.js";

export interface TedOptions {
  input: DocumentInput;
  totals: Totals;
  caf: Caf;
  /** `TSTED`, `YYYY-MM-DDTHH:MM:SS` Chile local time, supplied by the caller. */
  timestamp: string;
}

/** Placeholder `RSR` when a receipt has no receiver name (the schema wants 1..40 characters). */
const NO_NAME = "Sin RUT";

const first40 = (text: string): string => (text.length > 40 ? text.slice(0, 40) : text);

const embedded = new WeakMap<Caf, string>();

/** The CAF element as C14N renders it inside `Documento` (parseCaf flattens it; this also covers odd escapes). */
function canonicalCaf(caf: Caf): string {
  let c = embedded.get(caf);
  if (c === undefined) {
    c = canonicalizeXml(caf.cafXml, { inScope: { "": SII_NS }, rendered: { "": SII_NS } });
    embedded.set(caf, c);
  }
  return c;
}

/** What the TED's `DD` says of a document, whatever its branch (`Documento`, `Exportaciones`, `Liquidacion`). */
export interface TedFields {
  tipo: number;
  folio: number;
  /** `FchEmis`. */
  fecha: string;
  issuerRut: string;
  receiverRut: string;
  /** `RSR`; an empty name is written "Sin RUT". */
  receiverName: string;
  /** `MNT`: `MntTotal` exactly as the document writes it (a decimal in the foreign currency on exports). */
  amount: number | string;
  /** `IT1`: the first line's name. */
  firstItemName: string;
}

/**
 * The TED's fields of a document with a Chilean receiver: its identity, parties, total and first line's name.
 *
 * @example
 * tedFieldsOf(input, totals.montoTotal, input.items[0]?.nombre ?? "")
 */
export function tedFieldsOf(
  document: { tipo: number; folio: number; fecha: string; issuer: { rut: string }; receiver: { rut: string; razonSocial: string } },
  amount: number | string,
  firstItemName: string,
): TedFields {
  const { tipo, folio, fecha, issuer, receiver } = document;
  return { tipo, folio, fecha, issuerRut: issuer.rut, receiverRut: receiver.rut, receiverName: receiver.razonSocial, amount, firstItemName };
}

function checkCafFits(caf: Caf, fields: TedFields, issuerRut: string): void {
  const fail = (reason: string, message: string) => {
    throw new TimbreError("CAF_INVALID", message, { details: { reason, tipo: fields.tipo, folio: fields.folio } });
  };
  if (caf.tipo !== fields.tipo) fail("tipo_mismatch", `the CAF is for tipo ${caf.tipo}, the document is ${fields.tipo}`);
  if (fields.folio < caf.desde || fields.folio > caf.hasta) {
    fail("folio_out_of_range", `folio ${fields.folio} is outside the CAF range ${caf.desde}–${caf.hasta}`);
  }
  if (caf.rut !== issuerRut) fail("rut_mismatch", `the CAF belongs to ${caf.rut}, the issuer is ${issuerRut}`);
}

/**
 * Renders and stamps the TED; `file` is both the text embedded in the DTE and the PDF417 payload, `canonical` its
 * C14N form inside Documento. Throws `CAF_INVALID` / `VALIDATION_ERROR` (timestamp). Does not validate the input.
 *
 * @example
 * const ted = renderTed({ input, totals, caf, timestamp: "2026-01-15T10:11:12" }).file;
 */
export function renderTed({ input, totals, caf, timestamp }: TedOptions): DualWriter {
  const firstItem = input.items[0];
  if (firstItem === undefined) throw new TimbreError("VALIDATION_ERROR", "a document needs at least one line");
  return stampTed(tedFieldsOf(input, totals.montoTotal, firstItem.nombre), caf, timestamp);
}

/**
 * Renders and stamps a TED from its fields (any branch of DTE). Throws `CAF_INVALID` / `VALIDATION_ERROR`.
 *
 * @example
 * const ted = stampTed({ tipo: 110, folio: 1, fecha, issuerRut, receiverRut: "55555555-5", receiverName, amount: "112517.5", firstItemName }, caf, timestamp);
 */
export function stampTed(fields: TedFields, caf: Caf, timestamp: string): DualWriter {
  if (!isTimestamp(timestamp)) {
    throw new TimbreError("VALIDATION_ERROR", `timestamp must be YYYY-MM-DDTHH:MM:SS, got ${JSON.stringify(timestamp)}`);
  }
  const issuerRut = normalizeRut(fields.issuerRut);
  checkCafFits(caf, fields, issuerRut);
  const name = fields.receiverName === "" ? NO_NAME : fields.receiverName;

  const dd = new DualWriter();
  dd.raw("<DD>").value("RE", issuerRut).value("TD", fields.tipo).value("F", fields.folio).text("FE", fields.fecha);
  dd.value("RR", normalizeRut(fields.receiverRut)).text("RSR", first40(name)).value("MNT", fields.amount);
  dd.text("IT1", first40(fields.firstItemName));
  dd.pair(caf.cafXml, canonicalCaf(caf)).text("TSTED", timestamp).raw("</DD>");

  // FRMT: RSA-SHA1 over the ISO-8859-1 bytes of DD exactly as written in the file, no namespace declaration.
  const frmt = sign("sha1", encodeLatin1(dd.file), caf.privateKey).toString("base64");
  const ted = new DualWriter();
  ted.raw('<TED version="1.0">').pair(dd.file, dd.canonical);
  ted.raw(`<FRMT algoritmo="SHA1withRSA">${frmt}</FRMT></TED>`);
  return ted;
}
