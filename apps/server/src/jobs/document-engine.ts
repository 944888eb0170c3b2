/**
 * What the document workers need from the emission code (`dispatch/*`), as an interface so the workers hold no
 * emission logic and tests can drive them. `default-document-engine.ts` wires the real functions.
 */
import type { Deps } from "../deps.js";

export type ReconcileOutcome = "not_needed" | "received" | "not_received" | "wait" | "unavailable";

export interface DocumentEngine {
  /** Asks the SII whether an earlier upload of this PENDIENTE document arrived (and applies it). */
  reconcileDocument(deps: Deps, documentId: string): Promise<ReconcileOutcome>;
  /** Uploads these PENDIENTE documents in as few envelopes as possible (applies ENVIADO / RECHAZADO). */
  submitDocuments(deps: Deps, documentIds: string[]): Promise<unknown>;
  /**
   * Polls the SII for these ENVIADO documents (one status query per envelope) and applies the state changes;
   * returns the ids whose next check it settled (the poller releases the others).
   */
  refreshDocumentStatuses(deps: Deps, documentIds: string[]): Promise<Set<string>>;
  /** The back-off: when to look again after `attempts` checks. */
  nextCheckAt(deps: Deps, attempts: number, from?: Date): Date;
}
