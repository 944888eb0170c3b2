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

function checkCafFits(caf: Caf, input: DocumentInput, issuerRut: string): void {
  const fail = (reason: string, message: string) => {
    throw new TimbreError("CAF_INVALID", message, { details: { reason, tipo: input.tipo, folio: input.folio } });
  };
  if (caf.tipo !== input.tipo) fail("tipo_mismatch", `the CAF is for tipo ${caf.tipo}, the document is ${input.tipo}`);
  if (input.folio < caf.desde || input.folio > caf.hasta) {
    fail("folio_out_of_range", `folio ${input.folio} is outside the CAF range ${caf.desde}–${caf.hasta}`);
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
  if (!isTimestamp(timestamp)) {
    throw new TimbreError("VALIDATION_ERROR", `timestamp must be YYYY-MM-DDTHH:MM:SS, got ${JSON.stringify(timestamp)}`);
  }
  const issuerRut = normalizeRut(input.issuer.rut);
  checkCafFits(caf, input, issuerRut);
  const firstItem = input.items[0];
  if (firstItem === undefined) throw new TimbreError("VALIDATION_ERROR", "a document needs at least one line");
  const name = input.receiver.razonSocial === "" ? NO_NAME : input.receiver.razonSocial;

  const dd = new DualWriter();
  dd.raw("<DD>").value("RE", issuerRut).value("TD", input.tipo).value("F", input.folio).text("FE", input.fecha);
  dd.value("RR", normalizeRut(input.receiver.rut)).text("RSR", first40(name)).value("MNT", totals.montoTotal);
  dd.text("IT1", first40(firstItem.nombre));
  dd.pair(caf.cafXml, canonicalCaf(caf)).text("TSTED", timestamp).raw("</DD>");

  // FRMT: RSA-SHA1 over the ISO-8859-1 bytes of DD exactly as written in the file, no namespace declaration.
  const frmt = sign("sha1", encodeLatin1(dd.file), caf.privateKey).toString("base64");
  const ted = new DualWriter();
  ted.raw('<TED version="1.0">').pair(dd.file, dd.canonical);
  ted.raw(`<FRMT algoritmo="SHA1withRSA">${frmt}</FRMT></TED>`);
  return ted;
}
