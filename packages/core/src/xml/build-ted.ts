/** Public entry for the timbre alone (PDF417 payload, previews of a stamped document). */
import { assertValidDocument } from "./assert-valid.js";
import { renderTed, type TedOptions } from "./render-ted.js";

export type { TedOptions } from "./render-ted.js";

/**
 * Builds the stamped `<TED version="1.0">…</TED>`: `DD` (RE, TD, F, FE, RR, RSR and IT1 cut to 40 characters, MNT,
 * the CAF, TSTED = `timestamp`) flattened without namespace, and `FRMT` = RSA-SHA1 with the CAF private key over
 * the ISO-8859-1 bytes of that `DD`. The same text is embedded in the DTE and encoded in the PDF417.
 * Throws `ValidationError` on invalid input, `CAF_INVALID` when the CAF does not cover the document's tipo, folio or issuer.
 *
 * @example
 * const ted = buildTed({ input, totals: computeTotals(input), caf, timestamp: "2026-01-15T10:11:12" });
 * // '<TED version="1.0"><DD><RE>76192083-9</RE><TD>33</TD><F>1</F>…<FRMT algoritmo="SHA1withRSA">…</FRMT></TED>'
 */
export function buildTed(options: TedOptions): string {
  assertValidDocument(options.input);
  return renderTed(options).file;
}
