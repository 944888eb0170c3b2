/** The SII client of a business in an environment (cached by the gateway per certificate fingerprint). */
import type { SiiClient } from "@timbre/sii";
import type { Environment } from "../db/api-keys.js";
import type { BusinessRow } from "../db/businesses.js";
import type { Deps } from "../deps.js";
import { loadSigningIdentity, signingIdentityOf, type SigningIdentityInfo } from "../modules/dte/signing-identity.js";
import { memo } from "../concurrency.js";

export interface SiiSession {
  client: SiiClient;
  business: BusinessRow;
  signer: SigningIdentityInfo;
}

/**
 * `known`: the business row the caller read moments ago for the same work (an emission uploading the documents it
 * just signed with that row's certificate); without it the row is read now.
 */
export async function openSiiSession(deps: Deps, businessId: string, environment: Environment, known?: BusinessRow): Promise<SiiSession> {
  const { business, ...signer } = known ? { ...signingIdentityOf(deps, known), business: known } : await loadSigningIdentity(deps, businessId);
  const gateway = await deps.sii();
  return { client: gateway.client(environment, signer.identity, signer.fingerprint), business, signer };
}

/** Opens the SII session of a business in an environment (`openSiiSession`), or gives the one a round already opened. */
export type SessionOpener = (businessId: string, environment: Environment) => Promise<SiiSession>;

/**
 * Sessions opened once per business and environment for one round of work (a poll of ENVIADO documents, a round of
 * acceptance checks): the business row and the certificate are read once for all of that business's documents.
 */
export function roundSessions(deps: Deps): SessionOpener {
  const sessions = new Map<string, Promise<SiiSession>>();
  return (businessId, environment) => memo(sessions, `${businessId}|${environment}`, () => openSiiSession(deps, businessId, environment));
}

/** Envelope kind of a tipo: receipts travel in EnvioBOLETA. */
export const envelopeKindOf = (tipo: number): "EnvioDTE" | "EnvioBOLETA" => (tipo === 39 || tipo === 41 ? "EnvioBOLETA" : "EnvioDTE");

/** When to ask the SII again: 5 s, 10 s, 20 s … capped at 10 minutes (sandbox: its step time). */
export function nextCheckAt(deps: Deps, attempts: number, from: Date = deps.now()): Date {
  const base = deps.config.siiMode === "sandbox" ? Math.max(250, deps.config.siiSandboxStepMs * 5) : 5_000;
  return new Date(from.getTime() + Math.min(10 * 60_000, base * 2 ** Math.min(attempts, 10)));
}

/** Unanswered status checks after which a document is overdue: about a day of the back-off's 10-minute checks. */
export const OVERDUE_CHECKS = 150;
/** Unanswered status checks after which an overdue document is asked every 6 hours: about a week. */
export const STALE_CHECKS = 300;

/**
 * When to ask the SII again about an ENVIADO document it has not settled: the back-off of {@link nextCheckAt}; once
 * the document is overdue (no final word after about a day of checks: an envelope of another company, DNK, EMP, an
 * unknown code) every hour, after about a week every 6 hours — never given up, since the SII may still settle it,
 * but no longer every 10 minutes for months. (Uploads keep the 10-minute cap: a document must reach the SII soon
 * after an outage ends.)
 */
export function nextStatusCheckAt(deps: Deps, attempts: number, from: Date = deps.now()): Date {
  if (attempts < OVERDUE_CHECKS) return nextCheckAt(deps, attempts, from);
  return new Date(from.getTime() + (attempts < STALE_CHECKS ? 60 : 6 * 60) * 60_000);
}
