/** Build → stamp → sign one DTE, computing the digest over canonical text produced alongside the file text. */
import type { Caf } from "../caf/types.js";
import type { DocumentInput } from "../document/types.js";
import { signReference } from "../signature/sign-reference.js";
import type { SigningIdentity } from "../signature/types.js";
import type { Totals } from "../totals/index.js";
import { assertValidDocument } from "./assert-valid.js";
import { C14N_ALGORITHM, SII_NS, XML_DECLARATION } from "./constants.js";
import { documentId, renderDocumentoBody } from "./render-documento.js";
import { renderTed } from "./render-ted.js";

export interface SignedDteOptions {
  input: DocumentInput;
  totals: Totals;
  caf: Caf;
  identity: SigningIdentity;
  /** `TSTED` and `TmstFirma`: `YYYY-MM-DDTHH:MM:SS`, Chile local time (core never reads the clock). */
  timestamp: string;
}

export interface SignedDte {
  /** The stand-alone signed DTE with its XML declaration; every character is ISO-8859-1 (`encodeLatin1` it). */
  xml: string;
  /** The `<TED …>` text as embedded (PDF417 payload). */
  ted: string;
  /** `T<tipo>F<folio>`. */
  documentId: string;
}

/**
 * Builds the signed stand-alone `<DTE xmlns="http://www.sii.cl/SiiDte" version="1.0">`: Documento with TED and
 * TmstFirma, then `Signature` (Reference `#T33F1`, C14N 1.0 transform, rsa-sha1, RSAKeyValue + certificate). The
 * digest is SHA-1 over the UTF-8 canonical Documento, which starts
 * `<Documento xmlns="http://www.sii.cl/SiiDte" ID="T33F1">`. Throws `ValidationError`, `CAF_INVALID`.
 *
 * @example
 * const { xml, ted, documentId } = buildSignedDte({ input, totals: computeTotals(input), caf, identity, timestamp: "2026-01-15T10:11:12" });
 * const bytes = encodeLatin1(xml); // store exactly these bytes
 */
export function buildSignedDte({ input, totals, caf, identity, timestamp }: SignedDteOptions): SignedDte {
  assertValidDocument(input);
  const body = renderDocumentoBody(input, totals);
  const ted = renderTed({ input, totals, caf, timestamp });
  const id = documentId(input);
  const tail = `<TmstFirma>${timestamp}</TmstFirma></Documento>`;
  const file = `<Documento ID="${id}">${body.file}${ted.file}${tail}`;
  const canonical = `<Documento xmlns="${SII_NS}" ID="${id}">${body.canonical}${ted.canonical}${tail}`;
  const signature = signReference({ canonical, uri: `#${id}`, transform: C14N_ALGORITHM, identity });
  return {
    xml: `${XML_DECLARATION}<DTE xmlns="${SII_NS}" version="1.0">${file}${signature}</DTE>`,
    ted: ted.file,
    documentId: id,
  };
}
