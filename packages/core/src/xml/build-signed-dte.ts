/** Public entry: validate, then build → stamp → sign one DTE. */
import { assertValidDocument } from "./assert-valid.js";
import { renderSignedDte, type SignedDteOptions } from "./render-signed-dte.js";

export type { SignedDteOptions } from "./render-signed-dte.js";

export interface SignedDte {
  /** The stand-alone signed DTE with its XML declaration; every character is ISO-8859-1 (`encodeLatin1` it). */
  xml: string;
  /** The `<TED …>` text as embedded (PDF417 payload). */
  ted: string;
  /** `T<tipo>F<folio>`. */
  documentId: string;
  /**
   * C14N 1.0 of this DTE as it stands inside an envelope's `SetDTE` (the SII namespace and `xsi` in scope and
   * rendered above it): what `buildEnvelope` would otherwise compute from `xml` for the envelope's digest. Pass the
   * `SignedDte` itself in `dtes` and it is used as is.
   */
  envelopeC14n: string;
}

/**
 * Builds the signed stand-alone `<DTE xmlns="http://www.sii.cl/SiiDte" version="1.0">`: Documento with TED and
 * TmstFirma, then `Signature` (Reference `#T33F1`, C14N 1.0 transform, rsa-sha1, RSAKeyValue + certificate). The
 * digest is SHA-1 over the UTF-8 canonical Documento (`<Documento xmlns="http://www.sii.cl/SiiDte" ID="T33F1">…`),
 * written alongside the file text — no DOM, no xml-crypto. Throws `ValidationError`, `CAF_INVALID`.
 *
 * @example
 * const { xml, ted, documentId } = buildSignedDte({ input, totals: computeTotals(input), caf, identity, timestamp: "2026-01-15T10:11:12" });
 * const bytes = encodeLatin1(xml); // store exactly these bytes
 */
export function buildSignedDte(options: SignedDteOptions): SignedDte {
  assertValidDocument(options.input);
  const { xml, ted, documentId, envelopeC14n } = renderSignedDte(options);
  return { xml, ted, documentId, envelopeC14n };
}
