/**
 * Signed DTEs and envelopes built without core's checks: what software that does not validate first sends to the SII.
 * For tests of whoever judges such files (the sandbox SII, a receiver), never for issuing documents.
 */
import type { Resolution } from "../document/types.js";
import { canonicalizeXml } from "../signature/canonical.js";
import { signReference } from "../signature/sign-reference.js";
import type { SigningIdentity } from "../signature/types.js";
import { C14N_ALGORITHM, SII_NS, XML_DECLARATION, XSI_NS } from "../xml/constants.js";
import { renderDocumentoBody } from "../xml/render-documento.js";
import { renderTed } from "../xml/render-ted.js";
import { signDteBranch, type SignedDteOptions } from "../xml/render-signed-dte.js";
import { writeCaratula } from "../xml/write-caratula.js";

const CONTEXT = { "": SII_NS, xsi: XSI_NS } as const;

/**
 * A signed stand-alone DTE of any input, unvalidated; `id` replaces the Documento's `T<tipo>F<folio>`.
 *
 * @example
 * uncheckedSignedDte({ input, totals, caf, identity, timestamp, id: "T33F1B" });
 */
export function uncheckedSignedDte(options: SignedDteOptions & { id?: string }): string {
  const { input, totals, caf, identity, timestamp } = options;
  const ted = renderTed({ input, totals, caf, timestamp });
  const id = options.id ?? `T${input.tipo}F${input.folio}`;
  return signDteBranch({ element: "Documento", id, body: renderDocumentoBody(input, totals), ted, identity, timestamp }).xml;
}

/**
 * An EnvioDTE signed over DTE texts as given (the same folio twice, any issuer), the carátula counting them by tipo.
 *
 * @example
 * uncheckedEnvioDte({ rutEmisor, rutEnvia, resolution, dtes: [a, b], identity, timestamp });
 */
export function uncheckedEnvioDte(options: {
  rutEmisor: string; rutEnvia: string; resolution: Resolution; dtes: string[]; identity: SigningIdentity; timestamp: string;
}): string {
  const texts = options.dtes.map((t) => t.replace(/^<\?xml[^>]*\?>\s*/, ""));
  const counts = new Map<number, number>();
  for (const text of texts) {
    const tipo = Number(/<TipoDTE>(\d+)<\/TipoDTE>/.exec(text)?.[1] ?? 0);
    counts.set(tipo, (counts.get(tipo) ?? 0) + 1);
  }
  const caratula = writeCaratula({
    rutEmisor: options.rutEmisor, rutEnvia: options.rutEnvia, rutReceptor: "60803000-K", resolution: options.resolution, timestamp: options.timestamp, counts,
  });
  const canonicalDtes = texts.map((t) => canonicalizeXml(t, { inScope: CONTEXT, rendered: CONTEXT })).join("");
  const canonical = `<SetDTE xmlns="${SII_NS}" xmlns:xsi="${XSI_NS}" ID="SetDoc">${caratula}${canonicalDtes}</SetDTE>`;
  const signature = signReference({ canonical, uri: "#SetDoc", transform: C14N_ALGORITHM, identity: options.identity, context: CONTEXT });
  const root = `<EnvioDTE xmlns="${SII_NS}" xmlns:xsi="${XSI_NS}" xsi:schemaLocation="${SII_NS} EnvioDTE_v10.xsd" version="1.0">`;
  return `${XML_DECLARATION}${root}<SetDTE ID="SetDoc">${caratula}${texts.join("")}</SetDTE>${signature}</EnvioDTE>`;
}
