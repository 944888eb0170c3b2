import type { TipoCounts } from "./parse-est-up.js";

/** Service document state (core lifecycle `DOCUMENT_STATES`). */
export type LifecycleState = "PENDIENTE" | "ENVIADO" | "ACEPTADO" | "ACEPTADO_CON_REPAROS" | "RECHAZADO";

const REJECTED = new Set(["RSC", "RFR", "RCT", "RCH", "RCO", "RPT", "VOF"]);

/**
 * Maps an envelope status and its counts to the service state (BRIEF §8): processing → `ENVIADO`; `EPR` reads
 * the counts (any rejection → `RECHAZADO`, any reparo → `ACEPTADO_CON_REPAROS`, all accepted → `ACEPTADO`);
 * EPR alone is not acceptance.
 *
 * Interim local copy of core's `stateFromEnvelopeStatus` contract; replaced by the core function when it lands.
 *
 * @example
 * envelopeState("EPR", [{ tipo: 33, informados: 1, aceptados: 1, rechazados: 0, reparos: 0 }]); // "ACEPTADO"
 */
export function envelopeState(estado: string, counts: readonly TipoCounts[]): LifecycleState {
  if (REJECTED.has(estado)) return "RECHAZADO";
  if (estado === "RPR" || estado === "RLV") return "ACEPTADO_CON_REPAROS";
  if (estado !== "EPR") return "ENVIADO";
  const sum = (key: keyof Omit<TipoCounts, "tipo">) => counts.reduce((n, c) => n + c[key], 0);
  if (sum("rechazados") > 0) return "RECHAZADO";
  if (sum("reparos") > 0) return "ACEPTADO_CON_REPAROS";
  if (sum("informados") > 0 && sum("aceptados") >= sum("informados")) return "ACEPTADO";
  return "ENVIADO";
}
