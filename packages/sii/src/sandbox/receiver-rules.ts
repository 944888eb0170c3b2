/**
 * The rules of the registry of acceptances and claims (manual v1.2), as pure functions of a document's events and
 * the clock: which action may be recorded (ingresarAceptacionReclamoDoc) and whether the document can be assigned
 * (consultarDocDteCedible).
 */
import { isAcceptanceEvent, isClaimEvent, RECEIVER_WINDOW_MS } from "../codes/receiver-registry.js";
import type { ReceiverEventRecord } from "./registry.js";

/** The tipos the registry serves: factura (33), factura exenta (34), liquidación factura (43). */
export const RECEIVER_TIPOS: ReadonlySet<number> = new Set([33, 34, 43]);

/** The registry covers documents received from 14 January 2017 (Chile's midnight, summer time); older ones are 10. */
export const REGISTRY_START_MS = Date.parse("2017-01-14T00:00:00-03:00");


/**
 * Whether `now` falls within the first 8 calendar days (8 × 24 h) from the reception; the 8 days end at the same
 * clock time 8 days later, from which the window is closed.
 *
 * @example
 * withinWindow(receivedAt, receivedAt + 7 * 86_400_000); // true
 */
export function withinWindow(receivedAt: number, now: number): boolean {
  return now - receivedAt < RECEIVER_WINDOW_MS;
}

/** The verdict on an action: the `codResp`, whether to record it, and the claim to name in the message (6, 12). */
export interface ActionDecision {
  codigo: number;
  record: boolean;
  claim?: string;
}

/**
 * The manual's precedence for an action within the 8 days, given the events already recorded (oldest first):
 * - none of ACD, ERM, RCD, RFP, RFT → record (0);
 * - a claim (RCD/RFP/RFT) → ERM 6, ACD 12 (both naming the claim), the same claim 7, another claim recorded (0);
 * - ACD → ERM recorded (0), a claim 11, ACD 7;
 * - ERM → ACD recorded (0), a claim 13, ERM 7.
 * With both ACD and ERM recorded, a claim is 11 (ACD's rule) and either acceptance is 7.
 *
 * @example
 * decideAction([{ codigo: "RCD", rut, at }], "ERM"); // { codigo: 6, record: false, claim: "RCD" }
 */
export function decideAction(prior: readonly Pick<ReceiverEventRecord, "codigo">[], accion: ReceiverEventRecord["codigo"]): ActionDecision {
  const codes = prior.map((e) => e.codigo);
  const claim = codes.find(isClaimEvent);
  if (claim !== undefined) {
    if (accion === "ERM") return { codigo: 6, record: false, claim };
    if (accion === "ACD") return { codigo: 12, record: false, claim };
    return codes.includes(accion) ? { codigo: 7, record: false } : { codigo: 0, record: true };
  }
  const acd = codes.includes("ACD");
  const erm = codes.includes("ERM");
  if (!acd && !erm) return { codigo: 0, record: true };
  if (isClaimEvent(accion)) return { codigo: acd ? 11 : 13, record: false };
  return codes.includes(accion) ? { codigo: 7, record: false } : { codigo: 0, record: true };
}

/** What consultarDocDteCedible weighs about a received 33/34/43. */
export interface AssignabilityFacts {
  receivedAt: number;
  now: number;
  /** The receiver's events recorded so far. */
  events: readonly Pick<ReceiverEventRecord, "codigo">[];
  /** When each annulling credit note (CodRef 1) referencing it was received. */
  annulledAt: readonly number[];
}

/**
 * consultarDocDteCedible for a received document: 24 claimed; 21 annulled by a credit note received within the
 * first 8 days; within the 8 days 23 with ACD or ERM, else 22; after them (no claim) 25.
 *
 * @example
 * assignabilityCode({ receivedAt, now: receivedAt + 9 * 86_400_000, events: [], annulledAt: [] }); // 25
 */
export function assignabilityCode(facts: AssignabilityFacts): number {
  if (facts.events.some((e) => isClaimEvent(e.codigo))) return 24;
  if (facts.annulledAt.some((at) => withinWindow(facts.receivedAt, at))) return 21;
  if (withinWindow(facts.receivedAt, facts.now)) return facts.events.some((e) => isAcceptanceEvent(e.codigo)) ? 23 : 22;
  return 25;
}
