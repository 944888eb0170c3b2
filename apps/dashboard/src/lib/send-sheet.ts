/**
 * The documents of a spreadsheet sent to `POST /dte/batch` the way the CLI's `timbre dte batch` sends them (the SDK's
 * `sendInChunks` and `withContentKeys`): in chunks within the API's limits (500 documents, 1 MiB), one after the
 * other, each document under an `idempotency_key` made from its content and its place among equal documents. Within
 * 24 h a document sent again — a second click, the same file uploaded again, the sheet fixed and uploaded whole, or
 * the CLI with the same sheet — is answered as it was emitted (`replayed`) and takes no folio; only the documents
 * not emitted before are emitted. What was answered is kept in `run` as it arrives, so when a later chunk fails the
 * earlier ones can still be shown. Before that, `checkSheet` asks the API what the batch would answer
 * (`POST /dte/batch/preview`, no folio) under the same keys, so a file can be fixed before anything is emitted and
 * what was emitted before is shown as such.
 */
import type { BatchDocument, BatchPreviewItem, BatchPreviewResult, BatchResult, BatchResultItem } from "@timbre/sdk";
import { sendInChunks, withContentKeys, type EmissionSheet, type SheetDocument } from "@timbre/sdk/csv";
import { api } from "./api.js";

export interface Run {
  /** Each answered document with its result (`result.index` is its place among the sheet's documents). */
  outcomes: Array<{ document: SheetDocument; result: BatchResultItem }>;
}

export const newRun = (): Run => ({ outcomes: [] });

/**
 * `anew`: the documents (by their place in the sheet) the check found emitted before, to be emitted again as new
 * documents — other, equal sales. They go without their key; every other document keeps its own.
 */
export async function sendSheet(sheet: EmissionSheet, run: Run, { anew = new Set<number>() }: { anew?: ReadonlySet<number> } = {}): Promise<void> {
  await sendInChunks(await documentsOf(sheet, anew), async (documents) => (await api.post<BatchResult>("/dte/batch", { documents })).results, {
    onProgress: (results) => (run.outcomes = atDocuments(sheet, results)),
  });
}

/** Each document with the API's verdict before emitting (`POST /dte/batch/preview`: totals, or the batch's error). */
export async function checkSheet(sheet: EmissionSheet): Promise<Array<{ document: SheetDocument; result: BatchPreviewItem }>> {
  const results = await sendInChunks(await documentsOf(sheet), async (documents) => (await api.post<BatchPreviewResult>("/dte/batch/preview", { documents })).results);
  return atDocuments(sheet, results);
}

async function documentsOf(sheet: EmissionSheet, anew: ReadonlySet<number> = new Set()): Promise<BatchDocument[]> {
  const keyed = await withContentKeys(sheet.documents.map((d) => d.params));
  return keyed.map((document, i) => {
    if (!anew.has(i)) return document;
    const { idempotency_key: _, ...unkeyed } = document;
    return unkeyed;
  });
}

/** Results (numbered by their place in the sheet's documents) beside their documents. */
function atDocuments<R extends { index: number }>(sheet: EmissionSheet, results: readonly R[]): Array<{ document: SheetDocument; result: R }> {
  return results.flatMap((result) => {
    const document = sheet.documents[result.index];
    return document ? [{ document, result }] : [];
  });
}
