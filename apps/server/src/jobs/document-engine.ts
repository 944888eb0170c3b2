/**
 * What the document workers need from the emission code (`dispatch/*`), as an interface so the workers hold no
 * emission logic and tests can drive them. `default-document-engine.ts` wires the real functions.
 */
import type { Deps } from "../deps.js";
import type { RefreshShared } from "../dispatch/refresh-document-status.js";

export type ReconcileOutcome = "not_needed" | "received" | "not_received" | "wait" | "unavailable";

export interface DocumentEngine {
  /** Asks the SII whether an earlier upload of this PENDIENTE document arrived (and applies it). */
  reconcileDocument(deps: Deps, documentId: string): Promise<ReconcileOutcome>;
  /** Uploads these PENDIENTE documents in as few envelopes as possible (applies ENVIADO / RECHAZADO). */
  submitDocuments(deps: Deps, documentIds: string[]): Promise<unknown>;
  /**
   * Polls the SII for an ENVIADO document and applies the state change; `shared` (one per poller tick) lets the
   * documents of one envelope share its status query.
   */
  refreshDocumentStatus(deps: Deps, documentId: string, shared?: RefreshShared): Promise<unknown>;
  /** The back-off: when to look again after `attempts` checks. */
  nextCheckAt(deps: Deps, attempts: number, from?: Date): Date;
}
