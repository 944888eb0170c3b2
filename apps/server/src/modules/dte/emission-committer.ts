/**
 * Group commit for emissions: the documents of `POST /dte/emit` requests that arrive while this process is
 * creating others wait and are created together, in one transaction (`createDocuments`), as soon as the one in
 * progress ends. With nothing in progress a request's document is created at once (after the current turn of the
 * event loop), so an idle server adds no latency; under load the folio, insert and commit work is shared by every
 * request of the round — the same group commit as the SII uploads and the coalesced reads (`db/coalesce.ts`). When
 * requests arrive fast, a small round waits a little for more (`ROUND_LINGER`).
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

/**
 * When requests arrive fast — six or more expected within 40 ms at the rate of the last ≈ 200 ms, i.e. from
 * ≈ 150 emissions/s (`GroupCommitter`'s `linger`) —, a round with fewer than 16 documents waits until its oldest has
 * waited 40 ms. Each round has a fixed cost (its statement, its envelopes' signatures, uploads and state changes:
 * ≈ 8 ms of CPU over every process against ≈ 1.6 ms per document, bench/RESULTS.md §6). At a fixed 380/s a 20-ms
 * wait took envelopes from 2.2–3.5 to 4.5–4.8 documents and the processes' CPU down by 7–10 %; at a fixed 210/s
 * 40 ms instead of 20 took them from 2.3–2.5 to 4.9–5.0 documents, the CPU per emission (closed loop at ≈ 240/s)
 * from 7.3–8.1 to 5.9 ms and the p99 from 184–1 244 to 123–208 ms at about the same p50 (60 ms gave 7 documents but a
 * p50 of 88–96 ms). Slower arrivals never wait — at 120/s a 40-ms wait doubled the p50 (23–27 → 53–54 ms) for no
 * better p99 —, and under heavy load rounds are full anyway.
 */
export const ROUND_LINGER = { ms: 40, batch: 16, expected: 6 };

const createInRound = coalescedPer((deps: Deps) => (entries: DocumentToCreate[]) => createDocuments(deps, entries, { upload: true }), {
  maxBatch: MAX_DOCUMENTS_PER_ROUND,
  concurrency: ROUNDS_IN_FLIGHT,
  linger: ROUND_LINGER,
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
