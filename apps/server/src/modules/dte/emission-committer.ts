/**
 * Group commit for emissions: the documents of `POST /dte/emit` requests that arrive while this process is
 * creating others wait and are created together, in one transaction (`createDocuments`), as soon as the one in
 * progress ends. With nothing in progress a request's document is created at once (after the current turn of the
 * event loop), so an idle server adds no latency; under load the folio, insert and commit work is shared by every
 * request of the round — the same group commit as the SII uploads and the coalesced reads (`db/coalesce.ts`).
 */
import type { DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import { coalescedPer } from "../../db/coalesce.js";
import type { SubmitOutcome } from "../../dispatch/submit-documents.js";
import { createDocuments, type DocumentToCreate } from "./create-document.js";

/**
 * Documents per transaction: a round whose folios were not forecast (`numerations/folio-forecast.ts`) signs them
 * while it holds the ranges' row locks, so a round stays short (≈ 50 ms of CPU).
 */
export const MAX_DOCUMENTS_PER_ROUND = 64;

/**
 * Rounds in flight at once: the next round signs (ahead, with forecast folios) while the previous one holds the
 * ranges' locks and waits for its commit (at a fixed 60 emissions/s, p99 113–168 ms with 2 against 184–192 ms with 1;
 * with 3, one business's closed loop fell from ≈ 750 to 584/s: bench/RESULTS.md §6).
 */
export const ROUNDS_IN_FLIGHT = 2;

const createInRound = coalescedPer((deps: Deps) => (entries: DocumentToCreate[]) => createDocuments(deps, entries, { upload: true }), {
  maxBatch: MAX_DOCUMENTS_PER_ROUND,
  concurrency: ROUNDS_IN_FLIGHT,
});

/**
 * Creates the document in the next round of this process; rejects with the document's own error. `upload`: its
 * envelope's upload, when the round stored it in one and started it.
 */
export async function commitDocument(deps: Deps, entry: DocumentToCreate): Promise<{ row: DocumentRow; upload?: Promise<SubmitOutcome> }> {
  const created = await createInRound(deps, entry);
  if (!created.ok) throw created.error;
  return created;
}
