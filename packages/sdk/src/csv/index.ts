/**
 * `@timbre/sdk/csv` — emission requests from a spreadsheet, for importing a month of sales or a batch of boletas
 * (the CLI's `timbre dte batch --file ventas.csv` and the dashboard's import use it). No I/O and no dependency: it
 * runs in Node, Bun and browsers.
 */
export { BATCH_MAX_BYTES, BATCH_MAX_DOCUMENTS, chunkDocuments, sendInChunks, withContentKeys, type BatchChunk } from "../batch-chunks.js";
export { fold, parseAmount, parseSheetDate, parseYesNo } from "./cells.js";
export { EMISSION_SHEET_COLUMNS, type CellKind, type SheetColumn } from "./columns.js";
export { detectSeparator, parseCsv, type Separator } from "./csv-reader.js";
export { decodeText } from "./decode.js";
export { documentsCsv } from "./documents-csv.js";
export {
  readEmissionFile,
  readEmissionSheet,
  rowOfField,
  rowSpan,
  type EmissionSheet,
  type SheetDocument,
  type SheetProblem,
  type SheetProblemReason,
} from "./emission-sheet.js";
export { excelDate, isBinaryWorkbook, isZip, readWorkbookRows, WorkbookError, type WorkbookCell } from "./xlsx.js";
export { errorPlaces, type ErrorPlace } from "./error-places.js";
export { emissionSheetTemplate, failedRowsCsv, writeCsv, type FailedDocument } from "./sheet-files.js";
