/**
 * `GET /v1/received/:id/pdf` (`?formato=carta|termica`): the received DTE printed from its XML (amounts as the issuer
 * stated them, its timbre as a PDF417) on the PDF threads like `/dte/{id}/pdf`, cached per variant. No cedible copy:
 * that is the issuer's to print.
 */
import { decodeLatin1, decodeXml, printableReceived } from "@timbre/core";
import type { PrintableDocument } from "@timbre/core/pdf";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError, invalidParameter } from "../../http/errors.js";
import { cachedPdf, renderOnce, storePdf } from "../dte/pdf-cache.js";
import type { RenderedPdf } from "../dte/render-document-pdf.js";
import { renderOffThread } from "../dte/render-off-thread.js";
import { findReceived } from "./find-received.js";

/** The stored DTE's text: ISO-8859-1, or UTF-8 with its declaration when its text needed it (see `import-envelope.ts`). */
const receivedXmlText = (bytes: Uint8Array): string => (bytes[0] === 0x3c && bytes[1] === 0x3f ? decodeXml(bytes) : decodeLatin1(bytes));

/** The document to print; a stored DTE without a readable `Documento` (kept as evidence) is 409, not a 500. */
function printableOf(bytes: Uint8Array): PrintableDocument {
  try {
    return printableReceived(receivedXmlText(bytes));
  } catch (error) {
    throw new ApiError("CONFLICT", "this received document cannot be printed: its XML has no readable Documento", { reason: "not_printable" }, error);
  }
}

export async function renderReceivedPdf(deps: Deps, scope: BusinessScope, id: string, query: Record<string, string | undefined>): Promise<RenderedPdf> {
  const formato = query.formato ?? "carta";
  if (formato !== "carta" && formato !== "termica") throw invalidParameter("formato", "enum", "formato must be carta or termica");
  const row = await findReceived(deps, scope, id);
  const filename = `DTE-${row.emisorRut}-${row.tipo}-${row.folio}.pdf`;
  const key = `${row.id}|${formato}`;
  const hit = cachedPdf(key);
  if (hit) return { bytes: hit, filename };
  const bytes = await renderOnce(key, async () => {
    const rendered = await renderOffThread(deps, scope, printableOf(row.xml), { formato });
    storePdf(key, rendered);
    return rendered;
  });
  return { bytes, filename };
}
