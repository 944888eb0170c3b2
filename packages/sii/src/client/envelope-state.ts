import { stateFromEnvelopeStatus, type DocumentState, type EnvelopeVerdict } from "@timbre/core/lifecycle";
import type { TipoCounts } from "./parse-est-up.js";

/** Service document state (core lifecycle `DOCUMENT_STATES`). */
export type LifecycleState = DocumentState;
export type { EnvelopeVerdict };

/**
 * Maps an envelope status and its counts through core's lifecycle (BRIEF §8: EPR alone is not acceptance; mixed
 * counts stay `ENVIADO` with verdict `unresolved` until resolved per document).
 *
 * @example
 * envelopeVerdict("EPR", null, [{ tipo: 33, informados: 1, aceptados: 1, rechazados: 0, reparos: 0 }]).state; // "ACEPTADO"
 */
export function envelopeVerdict(estado: string, errCode: string | null, counts: readonly TipoCounts[]): EnvelopeVerdict {
  return stateFromEnvelopeStatus({ estado, ...(errCode === null ? {} : { errCode }), porTipo: counts.map((c) => ({ ...c })) });
}
