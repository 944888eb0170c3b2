/** Entry point of the printed representation. */
import { renderCarta } from "./carta.js";
import { createContext } from "./context.js";
import { renderTermica } from "./termica.js";
import type { PrintableDocument, RenderOptions } from "./types.js";

/**
 * Renders the printed representation of a DTE as PDF bytes (pure: no files, no clock — the PDF carries no dates
 * other than the document's own).
 *
 * - `formato: "carta"` (default): Letter pages; `"termica"`: one 80 mm roll page.
 * - `cedible: true`: acuse de recibo + `CEDIBLE` (tipos 33, 34, 52 only; ignored for others).
 * - `preview: true` or `ted: null`: no folio, no timbre, `SIN VALIDEZ TRIBUTARIA`.
 *
 * @example
 * const totals = computeTotals(input);
 * const pdf = await renderPdf({ input, totals, ted, resolution: { numero: 80, fecha: "2014-08-22" } }, { cedible: true });
 * // pdf: Uint8Array starting with "%PDF-"
 */
export async function renderPdf(doc: PrintableDocument, options: RenderOptions = {}): Promise<Uint8Array> {
  const ctx = await createContext(doc, options);
  if (options.formato === "termica") renderTermica(ctx);
  else renderCarta(ctx);
  return ctx.doc.save({ useObjectStreams: false });
}
