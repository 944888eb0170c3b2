/**
 * Dispatcher: PENDIENTE documents whose `next_check_at` is due (the SII was unreachable or slow at emission).
 * Each claimed document is first reconciled with the SII — an earlier upload may have arrived although its answer
 * was lost — and only documents the SII certainly does not have are submitted, so a document is never sent twice
 * ("wait"/"unavailable" skip this round). The emission code reschedules what it touches; `releaseDocument` covers
 * the rest. A round reconciles `concurrency` documents at once (default 8): after an SII outage every document of an
 * unanswered envelope is asked about (QueryEstDte), at the SII's pace, before anything is sent again.
 */
import type { Deps } from "../deps.js";
import { claimDocuments, documentState, releaseDocument } from "./claim-documents.js";
import type { DocumentEngine } from "./document-engine.js";
import { errorMessage } from "../log.js";
import { forEachConcurrently } from "../concurrency.js";

export interface DispatchOptions {
  batch?: number;
  /** How long a claim holds a document (reconcile + upload must fit). */
  leaseMs?: number;
  /** Documents reconciled at once. */
  concurrency?: number;
}

export function createDispatcher(deps: Deps, engine: DocumentEngine, options: DispatchOptions = {}) {
  const batch = options.batch ?? 50;
  const leaseMs = options.leaseMs ?? 120_000;
  const concurrency = options.concurrency ?? 8;

  async function mayUpload(id: string): Promise<boolean> {
    try {
      const outcome = await engine.reconcileDocument(deps, id);
      if (outcome !== "not_needed" && outcome !== "not_received") return false;
      return (await documentState(deps.db, id)) === "PENDIENTE";
    } catch (error) {
      deps.log.warn("dispatch.reconcile_failed", { dte_id: id, error: errorMessage(error) });
      return false;
    }
  }

  return {
    /** One round; true when the batch was full. */
    async tick(): Promise<boolean> {
      const claimed = await claimDocuments(deps.db, {
        estado: "PENDIENTE",
        now: deps.now(),
        limit: batch,
        leaseMs,
        // Safety net for a document left unscheduled: after its emission request's whole budget.
        unscheduledAfterMs: deps.config.emitBudgetMs + 60_000,
      });
      if (claimed.length === 0) return false;
      const mayGo = new Set<string>();
      await forEachConcurrently(claimed, concurrency, async (doc) => {
        if (await mayUpload(doc.id)) mayGo.add(doc.id);
      });
      const ready = claimed.filter((doc) => mayGo.has(doc.id)).map((doc) => doc.id);
      if (ready.length > 0) {
        try {
          await engine.submitDocuments(deps, ready);
        } catch (error) {
          deps.log.warn("dispatch.submit_failed", { documents: ready.length, error: errorMessage(error) });
        }
      }
      for (const doc of claimed) await releaseDocument(deps.db, doc, (n) => engine.nextCheckAt(deps, n));
      return claimed.length === batch;
    },
  };
}
