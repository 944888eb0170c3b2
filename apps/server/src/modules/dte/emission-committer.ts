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
import { createDocuments, signOnArrival, type DocumentToCreate } from "./create-document.js";

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
 * When requests arrive fast — four or more expected within 25 ms at the rate of the last ≈ 125 ms, i.e. from
 * ≈ 160 emissions/s (`GroupCommitter`'s `linger`) —, a round with fewer than 16 documents waits until its oldest has
 * waited 25 ms. Each round has a fixed cost (its statement, its envelopes' signatures, uploads and state changes), so
 * under moderate load a short wait for company saves more CPU than it costs in latency; slower arrivals never wait,
 * and under heavy load rounds are full anyway. The wait was 40 ms (six expected) while a round's fixed cost was
 * ≈ 8 ms of CPU against ≈ 1.6 ms per document; with today's cheaper rounds, at a fixed 285/s on a 2-vCPU VM,
 * 25–30 ms gave a p99 of 129–166 ms against 153–188 ms with 40, and 10–15 ms (too short to be taken at that rate)
 * 210–305 ms; at 200/s 25 ms gave p50 / p99 40 / 106–112 ms against 54–56 / 118–126 with 40 and 28–31 / 117–125
 * with no wait (bench/RESULTS.md §6, ninth session). Where half the peak is ≈ 550/s, sixteen documents arrive within ≈ 29 ms,
 * so there the two waits make rounds of about the same size.
 */
export const ROUND_LINGER = { ms: 25, batch: 16, expected: 4 };

/**
 * A document starts signing as it joins the next round (`signOnArrival`), so its signature is mostly ready when the
 * round starts: at half the peak on a 2-vCPU VM a round of ≈ 14 documents waited 14 ms (p50) for its signatures when
 * they started with it (bench/RESULTS.md §6, tenth session).
 */
const createInRound = coalescedPer((deps: Deps) => ({
  run: (entries: DocumentToCreate[]) => createDocuments(deps, entries, { upload: true }),
  prepare: (entry: DocumentToCreate) => signOnArrival(deps, entry),
}), {
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
