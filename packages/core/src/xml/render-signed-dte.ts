/** Build → stamp → sign, returning also the canonical Documento the digest was computed over (tests, bench). */
import type { Caf } from "../caf/types.js";
import type { DocumentInput } from "../document/types.js";
import { signReferenceForms } from "../signature/sign-reference.js";
import type { SigningIdentity } from "../signature/types.js";
import type { Totals } from "../totals/index.js";
import { C14N_ALGORITHM, SII_NS, XML_DECLARATION } from "./constants.js";
import { documentId, renderDocumentoBody } from "./render-documento.js";
import type { DualWriter } from "./dual-writer.js";
import type { SignedDte } from "./build-signed-dte.js";
import { renderTed, stampTed, type TedFields } from "./render-ted.js";

export interface SignedDteOptions {
  input: DocumentInput;
  totals: Totals;
  caf: Caf;
  identity: SigningIdentity;
  /** `TSTED` and `TmstFirma`: `YYYY-MM-DDTHH:MM:SS`, Chile local time (core never reads the clock). */
  timestamp: string;
}

export interface RenderedSignedDte {
  xml: string;
  ted: string;
  documentId: string;
  /** C14N 1.0 of `Documento` in the stand-alone DTE (UTF-8 of this string is what `DigestValue` hashes). */
  canonicalDocumento: string;
  /** C14N 1.0 of the whole DTE inside an envelope's `SetDTE` (see `SignedDte.envelopeC14n`). */
  envelopeC14n: string;
}

/**
 * The unvalidated core of `buildSignedDte`, also returning the canonical Documento the digest covers (tests, bench).
 *
 * @example
 * const { xml, canonicalDocumento } = renderSignedDte({ input, totals, caf, identity, timestamp: "2026-01-15T10:11:12" });
 */
export function renderSignedDte({ input, totals, caf, identity, timestamp }: SignedDteOptions): RenderedSignedDte {
  const body = renderDocumentoBody(input, totals);
  const ted = renderTed({ input, totals, caf, timestamp });
  return signDteBranch({ element: "Documento", id: documentId(input), body, ted, identity, timestamp });
}

export interface DteBranch {
  /** The child of `DTE` that the signature covers. */
  element: "Documento" | "Exportaciones" | "Liquidacion";
  /** Its `ID` (`T<tipo>F<folio>`). */
  id: string;
  /** Everything before the TED. */
  body: DualWriter;
  ted: DualWriter;
  identity: SigningIdentity;
  /** `TmstFirma`. */
  timestamp: string;
}

/**
 * Closes a DTE branch with its TED and `TmstFirma` and signs it (Reference `#<ID>`, C14N 1.0): the one signing recipe
 * for `Documento`, `Exportaciones` and `Liquidacion`.
 *
 * @example
 * const { xml } = signDteBranch({ element: "Exportaciones", id: "T110F1", body, ted, identity, timestamp });
 */
export function signDteBranch({ element, id, body, ted, identity, timestamp }: DteBranch): RenderedSignedDte {
  const tail = `<TmstFirma>${timestamp}</TmstFirma></${element}>`;
  const file = `<${element} ID="${id}">${body.file}${ted.file}${tail}`;
  const content = `${body.canonical}${ted.canonical}${tail}`;
  const canonical = `<${element} xmlns="${SII_NS}" ID="${id}">${content}`;
  const signature = signReferenceForms({ canonical, uri: `#${id}`, transform: C14N_ALGORITHM, identity });
  return {
    xml: `${XML_DECLARATION}<DTE xmlns="${SII_NS}" version="1.0">${file}${signature.file}</DTE>`,
    ted: ted.file,
    documentId: id,
    canonicalDocumento: canonical,
    // Inside SetDTE the SII namespace (and xsi) are already rendered by the envelope: neither DTE nor the branch
    // declares anything there; Signature declares xmldsig's.
    envelopeC14n: `<DTE version="1.0"><${element} ID="${id}">${content}${signature.nested}</DTE>`,
  };
}

/**
 * Stamps a branch's TED from its fields and signs the branch: the tail every document builder shares.
 *
 * @example
 * const signed = stampAndSign({ element: "Liquidacion", id: "T43F1", body, ted: fields, caf, identity, timestamp });
 */
export function stampAndSign(options: Omit<DteBranch, "ted"> & { ted: TedFields; caf: Caf }): SignedDte {
  const ted = stampTed(options.ted, options.caf, options.timestamp);
  const { xml, documentId, envelopeC14n } = signDteBranch({ ...options, ted });
  return { xml, ted: ted.file, documentId, envelopeC14n };
}
