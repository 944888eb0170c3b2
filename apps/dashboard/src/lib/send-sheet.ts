/**
 * The documents of a spreadsheet sent to `POST /dte/batch` the way the CLI's `timbre dte batch` sends them (the SDK's
 * `sendInChunks` and `chunkKey`): in chunks within the API's limits (500 documents, 1 MiB), one after the other,
 * each under an `Idempotency-Key` made from its content, so a chunk sent again within 24 h — a second click, the same
 * file uploaded again, or run by the CLI — is answered with the stored results and takes no folio. What was answered
 * is kept in `run` as it arrives, so when a later chunk fails the earlier ones can still be shown. Before that,
 * `checkSheet` asks the API what the batch would answer (`POST /dte/batch/preview`, no folio), so a file can be
 * fixed before anything is emitted.
 */
import type { BatchPreviewItem, BatchPreviewResult, BatchResult, BatchResultItem } from "@timbre/sdk";
import { chunkKey, sendInChunks, type EmissionSheet, type SheetDocument } from "@timbre/sdk/csv";
import { api } from "./api.js";

export interface Run {
  /** Each answered document with its result (`result.index` is its place among the sheet's documents). */
  outcomes: Array<{ document: SheetDocument; result: BatchResultItem }>;
  /** Chunks answered, and how many of them were replays of an earlier run (`Idempotent-Replayed`). */
  chunks: number;
  replayed: number;
}

export const newRun = (): Run => ({ outcomes: [], chunks: 0, replayed: 0 });

export async function sendSheet(sheet: EmissionSheet, run: Run): Promise<void> {
  await sendInChunks(sheet.documents.map((d) => d.params), async (documents) => {
    const { data, replayed } = await api.postOnce<BatchResult>("/dte/batch", { documents }, await chunkKey(documents));
    run.chunks += 1;
    if (replayed) run.replayed += 1;
    return data.results;
  }, { onProgress: (results) => (run.outcomes = atDocuments(sheet, results)) });
}

/** Each document with the API's verdict before emitting (`POST /dte/batch/preview`: totals, or the batch's error). */
export async function checkSheet(sheet: EmissionSheet): Promise<Array<{ document: SheetDocument; result: BatchPreviewItem }>> {
  const results = await sendInChunks(sheet.documents.map((d) => d.params), async (documents) => (await api.post<BatchPreviewResult>("/dte/batch/preview", { documents })).results);
  return atDocuments(sheet, results);
}

/** Results (numbered by their place in the sheet's documents) beside their documents. */
function atDocuments<R extends { index: number }>(sheet: EmissionSheet, results: readonly R[]): Array<{ document: SheetDocument; result: R }> {
  return results.flatMap((result) => {
    const document = sheet.documents[result.index];
    return document ? [{ document, result }] : [];
  });
}
