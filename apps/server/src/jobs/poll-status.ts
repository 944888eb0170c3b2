/**
 * Status poller: ENVIADO documents due by `next_check_at` ask the SII (`refreshDocumentStatus`, which applies any
 * state change and reschedules with its back-off) until a final state; `releaseDocument` reschedules documents
 * the refresh did not touch (e.g. it threw).
 */
import type { Deps } from "../deps.js";
import { claimDocuments, releaseDocument, type ClaimedDocument } from "./claim-documents.js";
import type { DocumentEngine } from "./document-engine.js";
import { newRefreshShared, type RefreshShared } from "../dispatch/refresh-document-status.js";

export interface PollOptions {
  batch?: number;
  /** SII queries in flight at once. */
  concurrency?: number;
  leaseMs?: number;
}

export function createStatusPoller(deps: Deps, engine: DocumentEngine, options: PollOptions = {}) {
  const batch = options.batch ?? 20;
  const concurrency = options.concurrency ?? 4;
  const leaseMs = options.leaseMs ?? 120_000;

  async function poll(doc: ClaimedDocument, shared: RefreshShared): Promise<void> {
    try {
      await engine.refreshDocumentStatus(deps, doc.id, shared);
    } catch (error) {
      deps.log.warn("poll.refresh_failed", { dte_id: doc.id, error: error instanceof Error ? error.message : String(error) });
    }
    await releaseDocument(deps.db, doc, (n) => engine.nextCheckAt(deps, n));
  }

  return {
    async tick(): Promise<boolean> {
      const claimed = await claimDocuments(deps.db, { estado: "ENVIADO", now: deps.now(), limit: batch, leaseMs, unscheduledAfterMs: null });
      // Documents of one envelope are claimed together (same next_check_at) and share its status query.
      const shared = newRefreshShared(false);
      for (let i = 0; i < claimed.length; i += concurrency) {
        await Promise.all(claimed.slice(i, i + concurrency).map((doc) => poll(doc, shared)));
      }
      return claimed.length === batch;
    },
  };
}
