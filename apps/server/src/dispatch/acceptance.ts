/**
 * The receiver's answer to a factura, as the SII's registry of acceptances and claims records it (Ley 19.983 as
 * amended by Ley 20.956; the SII's "Web Service de Consulta y Registro de Aceptación/Reclamo a DTE recibido" v1.2):
 * within 8 calendar days of the SII's reception the receiver may accept the content (ACD), acknowledge receipt of
 * the goods or services (ERM) or claim (RCD content, RFP partial or RFT total lack of goods). A claim or an
 * acceptance settles it; after 8 days without a claim the factura counts as accepted (ACEPTADO_TACITO).
 * The registry serves 33, 34 and 43 (the liquidación-factura, which the principal accepts or claims like a factura). Pure: the SII calls are in
 * `refresh-acceptance.ts`.
 */
import { isAcceptanceEvent, isClaimEvent, RECEIVER_WINDOW_MS } from "@timbre/sii";
import type { Config } from "../config.js";
import type { AcceptanceSnapshot } from "../db/documents.js";

export type AcceptanceState = AcceptanceSnapshot["estado"];

/** The states an answer of the registry gives (the `aceptacion` filter of `GET /v1/dte`). */
export const ACCEPTANCE_STATES: readonly AcceptanceState[] = ["SIN_RESPUESTA", "ACEPTADO", "RECLAMADO", "ACEPTADO_TACITO"];

/** Tipos the SII's registry serves. */
export const ACCEPTANCE_TIPOS: ReadonlySet<number> = new Set([33, 34, 43]);

/** The receiver's window: 8 calendar days from the SII's reception. */
export const CLAIM_WINDOW_MS = RECEIVER_WINDOW_MS;

const HOUR = 3_600_000;
/** When to ask, counted from the SII's reception: soon, then days apart, and once just after the window closes. */
const CHECKS_AFTER_RECEPTION_MS = [HOUR, 24 * HOUR, 3 * 24 * HOUR, 6 * 24 * HOUR, CLAIM_WINDOW_MS + HOUR];
/**
 * The first question after the SII accepts a factura: an hour later, or 30 s against the sandbox SII, whose
 * `[sandbox:reclamo]` / `[sandbox:acepta]` receivers answer at once — so a developer sees `dte.acceptance_changed`
 * arrive without waiting an hour.
 */
export function firstAcceptanceCheckMs(config: Pick<Config, "siiMode">): number {
  return config.siiMode === "sandbox" ? 30_000 : HOUR;
}
/** Retry after an answer that says nothing yet (not received, SII unavailable). */
export const ACCEPTANCE_RETRY_MS = HOUR;
/** Stop asking about a document the registry never answered for, this long after it was accepted. */
export const ACCEPTANCE_GIVE_UP_MS = CLAIM_WINDOW_MS + 2 * 24 * HOUR;

/**
 * The state the events give: a claim wins (the registry refuses an acceptance after a claim and vice versa, so
 * both appear only in that order), then an acceptance; without either, tacit acceptance once the window closed.
 *
 * @example
 * acceptanceState(["ERM"], null, new Date()); // "ACEPTADO"
 */
export function acceptanceState(codigos: readonly string[], receivedAt: Date | null, now: Date): AcceptanceState {
  if (codigos.some(isClaimEvent)) return "RECLAMADO";
  if (codigos.some(isAcceptanceEvent)) return "ACEPTADO";
  if (receivedAt !== null && now.getTime() >= receivedAt.getTime() + CLAIM_WINDOW_MS) return "ACEPTADO_TACITO";
  return "SIN_RESPUESTA";
}

/**
 * When to ask next: never once settled; else the next of the checks after reception, the last one just after the
 * window closes (which settles it as tacit or claimed).
 *
 * @example
 * nextAcceptanceCheck("SIN_RESPUESTA", receivedAt, now); // reception + 1 day, + 3 days…
 */
export function nextAcceptanceCheck(state: AcceptanceState, receivedAt: Date, now: Date): Date | null {
  if (state !== "SIN_RESPUESTA") return null;
  const due = CHECKS_AFTER_RECEPTION_MS.map((ms) => receivedAt.getTime() + ms).find((t) => t > now.getTime());
  return new Date(due ?? now.getTime() + HOUR);
}

/** The events in `next` that `previous` did not have (same code and date). */
export function newEvents(previous: AcceptanceSnapshot["eventos"], next: AcceptanceSnapshot["eventos"]): AcceptanceSnapshot["eventos"] {
  const seen = new Set(previous.map((e) => `${e.codigo}|${e.fecha}`));
  return next.filter((e) => !seen.has(`${e.codigo}|${e.fecha}`));
}
