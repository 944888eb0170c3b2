/**
 * Status poller: ENVIADO documents due by `next_check_at`, claimed through their envelopes (`claimByEnvelope`),
 * ask the SII (`refreshDocumentStatuses`: one status query per envelope; state changes applied and rescheduled with
 * its back-off); `releaseDocument` reschedules the documents the refresh did not settle (e.g. it threw).
 */
import type { Deps } from "../deps.js";
import { claimByEnvelope, releaseDocument } from "./claim-documents.js";
import type { DocumentEngine } from "./document-engine.js";
import { errorMessage } from "../log.js";

export interface PollOptions {
  batch?: number;
  leaseMs?: number;
}

export function createStatusPoller(deps: Deps, engine: DocumentEngine, options: PollOptions = {}) {
  // 100 per tick, their envelopes asked 8 at a time (`refreshDocumentStatuses`): with 20 and 4 the single round
  // fell behind at ~600 emissions/s and finished a 30-s closed loop's documents 16 s late (bench/RESULTS.md §6).
  const batch = options.batch ?? 100;
  const leaseMs = options.leaseMs ?? 120_000;

  return {
    async tick(): Promise<boolean> {
      // Documents of one envelope are claimed together (through the envelope's lease) and share its status query.
      const claim = await claimByEnvelope(deps.db, { estado: "ENVIADO", now: deps.now(), limit: batch, leaseMs });
      const claimed = claim.documents;
      try {
        if (claimed.length === 0) return false;
        let settled = new Set<string>();
        try {
          settled = await engine.refreshDocumentStatuses(deps, claimed.map((d) => d.id));
        } catch (error) {
          deps.log.warn("poll.refresh_failed", { documents: claimed.length, error: errorMessage(error) });
        }
        for (const doc of claimed) if (!settled.has(doc.id)) await releaseDocument(deps.db, doc, (n) => engine.nextCheckAt(deps, n));
        return claimed.length === batch;
      } finally {
        await claim.end();
      }
    },
  };
}
