/** Everything a layout needs: the pdf-lib document, fonts, logo and the decided print mode. */
import { PDFDocument, StandardFonts, type PDFImage } from "pdf-lib";
import { TimbreError } from "../errors/index.js";
import { CEDIBLE_TIPOS } from "../document/types.js";
import type { Fonts } from "./sheet.js";
import type { PrintableDocument, RenderOptions } from "./types.js";

export interface RenderContext {
  doc: PDFDocument;
  fonts: Fonts;
  logo: PDFImage | null;
  data: PrintableDocument;
  /** No folio, no timbre, watermark. */
  preview: boolean;
  /** Acuse de recibo + CEDIBLE (only ever true for tipos 33, 34, 52). */
  cedible: boolean;
}

async function embedLogo(doc: PDFDocument, logo: RenderOptions["logo"]): Promise<PDFImage | null> {
  if (!logo) return null;
  try {
    return logo.type === "png" ? await doc.embedPng(logo.bytes) : await doc.embedJpg(logo.bytes);
  } catch (cause) {
    throw new TimbreError("VALIDATION_ERROR", `logo: not a valid ${logo.type.toUpperCase()} image`, {
      details: { issues: [{ path: "logo", reason: "format", message: `not a valid ${logo.type} image` }] },
      cause,
    });
  }
}

/**
 * Creates the PDF document and decides the mode: preview when asked or when there is no TED; cedible only for
 * tipos 33, 34 and 52 (ignored otherwise).
 *
 * @example
 * const ctx = await createContext(printable, { cedible: true });
 */
export async function createContext(data: PrintableDocument, options: RenderOptions): Promise<RenderContext> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const [regular, bold, italic] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(StandardFonts.HelveticaOblique),
  ]);
  const logo = await embedLogo(doc, options.logo);
  const preview = options.preview === true || data.ted === null;
  const cedible = options.cedible === true && CEDIBLE_TIPOS.includes(data.input.tipo);
  return { doc, fonts: { regular, bold, italic }, logo, data, preview, cedible };
}
