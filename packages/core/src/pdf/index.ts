/**
 * `@timbre/core/pdf` — the printed representation of a DTE (BRIEF §9) with its PDF417 timbre (BRIEF §5).
 * Not re-exported from the package root so that plain RUT/totals users never load pdf-lib.
 */
export { renderPdf } from "./render-pdf.js";
export type { PrintableDocument, RenderOptions } from "./types.js";
export { documentName, paymentTermName, referenceCodeName, referenceTypeName } from "./words.js";
export { formatDateShort, formatDateWords, formatMoney, formatNumber } from "./format.js";
export { encodePdf417, type Pdf417Symbol } from "./pdf417.js";
export { placeTimbre, tedBytes } from "./barcode.js";
export { toWinAnsi } from "./text.js";
