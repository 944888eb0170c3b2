/**
 * Registry follow-up worker (API.md §12): received 33/34/43 still `SIN_RESPUESTA` whose `registry_check_at` is due ask
 * the SII's registry of acceptances and claims again (`refreshRegistry`, which stores the answer and the next
 * check): `recibido_sii_at`/`plazo_hasta` once the SII has the document, decisions taken at sii.cl or by another
 * system (`origen: "sii"`, `received.decided`), `received.deadline_near` 2 days before `plazo_hasta`, and
 * `ACEPTADO_TACITO` once it passed. The claim moves `registry_check_at` forward by a lease in the same statement
 * (`FOR UPDATE SKIP LOCKED`), so processes share the work; a refresh that throws leaves the lease. The questions are
 * paced like the acceptance worker's (`ACCEPTANCE_CHECKS_PER_SECOND`, the same bucket when `start-workers.ts` gives
 * one), `concurrency` at once, with one SII session per business and round.
 */
import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Deps } from "../deps.js";
import { receivedDocuments } from "../db/received.js";
import { roundSessions } from "../dispatch/sii-session.js";
import { errorMessage } from "../log.js";
import { createPacer, forEachConcurrently, type Pacer } from "../concurrency.js";
import { refreshRegistry } from "../modules/received/refresh-registry.js";

export interface RegistryWorkerOptions {
  batch?: number;
  leaseMs?: number;
  /** Documents asked about at once. */
  concurrency?: number;
  /** What paces the questions; default a token bucket of `ACCEPTANCE_CHECKS_PER_SECOND` with bursts of `concurrency`. */
  pacer?: Pacer;
}

export function createRegistryWorker(deps: Deps, options: RegistryWorkerOptions = {}) {
  const batch = options.batch ?? 50;
  const leaseMs = options.leaseMs ?? 10 * 60_000;
  const concurrency = options.concurrency ?? 8;
  const pacer = options.pacer ?? createPacer({ perSecond: deps.config.acceptanceChecksPerSecond, burst: concurrency });
  return {
    /** One round: `more` when the batch was full, `changed` when an event was recorded. */
    async tick(): Promise<{ more: boolean; changed: boolean }> {
      const now = deps.now();
      const due = deps.db
        .select({ id: receivedDocuments.id })
        .from(receivedDocuments)
        .where(and(lte(receivedDocuments.registryCheckAt, now), eq(receivedDocuments.estado, "SIN_RESPUESTA")))
        .orderBy(asc(receivedDocuments.registryCheckAt))
        .limit(batch)
        .for("update", { skipLocked: true });
      const claimed = await deps.db
        .update(receivedDocuments)
        .set({ registryCheckAt: new Date(now.getTime() + leaseMs) })
        .where(inArray(receivedDocuments.id, due))
        .returning();
      let changed = false;
      const openSession = roundSessions(deps);
      await forEachConcurrently(claimed, concurrency, async (row) => {
        await pacer.take();
        try {
          const updated = await refreshRegistry(deps, row, openSession);
          if (updated && (updated.estado !== row.estado || updated.deadlineWarnedAt !== row.deadlineWarnedAt)) changed = true;
        } catch (error) {
          deps.log.warn("registry.refresh_failed", { received_id: row.id, error: errorMessage(error) });
        }
      });
      return { more: claimed.length === batch, changed };
    },
  };
}
