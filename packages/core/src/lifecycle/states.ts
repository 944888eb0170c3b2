import { TimbreError } from "../errors/index.js";

/** The public document states (API.md §6.3). */
export const DOCUMENT_STATES = ["PENDIENTE", "ENVIADO", "ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO"] as const;

export type DocumentState = (typeof DOCUMENT_STATES)[number];

/** States a document leaves no more. */
export const FINAL_STATES: readonly DocumentState[] = ["ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO"];

/**
 * The one transition table. PENDIENTE → ENVIADO (uploaded, track id) or RECHAZADO (the upload itself was refused
 * for the document); ENVIADO → one of the three verdicts. Nothing else exists.
 */
export const TRANSITIONS: Readonly<Record<DocumentState, readonly DocumentState[]>> = {
  PENDIENTE: ["ENVIADO", "RECHAZADO"],
  ENVIADO: ["ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO"],
  ACEPTADO: [],
  ACEPTADO_CON_REPAROS: [],
  RECHAZADO: [],
};

/**
 * `true` when `value` is one of {@link DOCUMENT_STATES}.
 *
 * @example
 * isDocumentState("ENVIADO") // true
 */
export function isDocumentState(value: unknown): value is DocumentState {
  return typeof value === "string" && (DOCUMENT_STATES as readonly string[]).includes(value);
}

/**
 * Whether the table allows `from → to` (staying in the same state is not a transition).
 *
 * @example
 * canTransition("PENDIENTE", "ENVIADO") // true
 * canTransition("ACEPTADO", "RECHAZADO") // false
 */
export function canTransition(from: DocumentState, to: DocumentState): boolean {
  return TRANSITIONS[from].includes(to);
}

/**
 * Returns `to` when the transition is allowed, else throws `INVALID_TRANSITION` (details `{ from, to }`).
 *
 * @example
 * doc.estado = transition(doc.estado, "ENVIADO");
 */
export function transition<T extends DocumentState>(from: DocumentState, to: T): T {
  if (!canTransition(from, to)) {
    throw new TimbreError("INVALID_TRANSITION", `invalid document state transition ${from} → ${to}`, { details: { from, to } });
  }
  return to;
}

/**
 * `true` for ACEPTADO, ACEPTADO_CON_REPAROS and RECHAZADO.
 *
 * @example
 * isFinalState("ENVIADO") // false
 */
export function isFinalState(state: DocumentState): boolean {
  return FINAL_STATES.includes(state);
}
