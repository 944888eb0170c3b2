/**
 * Acceptance worker: accepted facturas due by `acceptance_check_at` ask the SII's registry of acceptances and claims
 * (`refreshDocumentAcceptance`), which stores the answer and the next check. The claim moves `acceptance_check_at`
 * forward by a lease in the same statement (`FOR UPDATE SKIP LOCKED`) and returns the documents, so processes share
 * the work; the round opens one SII session per business (`roundSessions`). A refresh that throws
 * leaves the lease, and the document is due again when it ends. A round asks about `concurrency` documents at once
 * (default 8): each check is one or two calls to the registry (two the first time), which take hundreds of
 * milliseconds at the real SII, and a factura is asked about up to five times in its 8 days — one at a time, a
 * business emitting ten thousand facturas a day would outgrow the worker.
 *
 * The checks are paced (`perSecond`, default `ACCEPTANCE_CHECKS_PER_SECOND`, per process; bursts of `concurrency`):
 * nothing about them is urgent — a factura's window is 8 days — and a backlog (a burst of facturas accepted together,
 * an SII outage ended) would otherwise be asked about as fast as the registry answers, which against the sandbox
 * SII is the machine's whole CPU, taken from the emissions being answered at that moment (bench/RESULTS.md §6,
 * 2026-11-27, fifth entry). The pace stays above what the real SII's latency allows 8 at a time.
 */
import { asc, inArray, lte } from "drizzle-orm";
import type { Deps } from "../deps.js";
import { documentHeadColumns, documents } from "../db/documents.js";
import { refreshDocumentAcceptance } from "../dispatch/refresh-acceptance.js";
import { roundSessions } from "../dispatch/sii-session.js";
import { errorMessage } from "../log.js";
import { createPacer, forEachConcurrently, type Pacer } from "../concurrency.js";

export interface AcceptanceWorkerOptions {
  batch?: number;
  leaseMs?: number;
  /** Documents asked about at once. */
  concurrency?: number;
  /** Checks started per second at most, on average (this process). */
  perSecond?: number;
  /** What paces the checks (tests); default a token bucket of `perSecond` with bursts of `concurrency`. */
  pacer?: Pacer;
}

export function createAcceptanceWorker(deps: Deps, options: AcceptanceWorkerOptions = {}) {
  const batch = options.batch ?? 50;
  const leaseMs = options.leaseMs ?? 10 * 60_000;
  const concurrency = options.concurrency ?? 8;
  const pacer = options.pacer ?? createPacer({ perSecond: options.perSecond ?? deps.config.acceptanceChecksPerSecond, burst: concurrency });
  return {
    /** One round: `more` when the batch was full, `changed` when an event was recorded. */
    async tick(): Promise<{ more: boolean; changed: boolean }> {
      const now = deps.now();
      const due = deps.db
        .select({ id: documents.id })
        .from(documents)
        .where(lte(documents.acceptanceCheckAt, now))
        .orderBy(asc(documents.acceptanceCheckAt))
        .limit(batch)
        .for("update", { skipLocked: true });
      const claimed = await deps.db
        .update(documents)
        .set({ acceptanceCheckAt: new Date(now.getTime() + leaseMs) })
        .where(inArray(documents.id, due))
        .returning(documentHeadColumns);
      let changed = false;
      const openSession = roundSessions(deps);
      await forEachConcurrently(claimed, concurrency, async (doc) => {
        await pacer.take();
        try {
          if ((await refreshDocumentAcceptance(deps, doc, openSession)).changed) changed = true;
        } catch (error) {
          deps.log.warn("acceptance.refresh_failed", { dte_id: doc.id, error: errorMessage(error) });
        }
      });
      return { more: claimed.length === batch, changed };
    },
  };
}
