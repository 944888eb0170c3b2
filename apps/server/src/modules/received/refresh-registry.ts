/**
 * Brings a received 33/34/43 up to date with the SII's registry: its reception instant (`recibido_sii_at`,
 * `plazo_hasta`), decisions taken at sii.cl or by another system (`origen: "sii"`, `received.decided`), and
 * `ACEPTADO_TACITO` once the 8 days passed without a decision, and `received.deadline_near` once, 2 days before
 * `plazo_hasta` with no decision. Sets when to ask again (`registry_check_at`): the registry follow-up worker
 * (`jobs/poll-registry.ts`) asks when it is due, and a decision asks first (`decide-received.ts`).
 */
import { and, eq } from "drizzle-orm";
import { receivedDocuments, type ReceivedDocumentRow, type ReceivedEvent, type ReceivedState } from "../../db/received.js";
import type { Deps } from "../../deps.js";
import { recordEvent } from "../dte/change-state.js";
import type { SessionOpener } from "../../dispatch/sii-session.js";
import { askRegistry, deadlineOf } from "./registry.js";

const MINUTE = 60_000;
const ACCEPTING = new Set(["ACD", "ERM"]);
const CLAIMS = new Set(["RCD", "RFP", "RFT"]);

/** The state the events say (claims win: one claim excludes acceptance), or the tacit acceptance after the deadline. */
export function stateFromEvents(eventos: ReceivedEvent[], plazoHasta: Date | null, now: Date): ReceivedState {
  if (eventos.some((e) => CLAIMS.has(e.codigo))) return "RECLAMADO";
  if (eventos.some((e) => ACCEPTING.has(e.codigo))) return "ACEPTADO";
  if (plazoHasta !== null && now.getTime() > plazoHasta.getTime()) return "ACEPTADO_TACITO";
  return "SIN_RESPUESTA";
}

/** Timbre's own events plus the registry's that Timbre did not record (same code), oldest first. */
function merge(own: ReceivedEvent[], sii: ReceivedEvent[]): ReceivedEvent[] {
  const mine = own.filter((e) => e.origen === "timbre");
  const fromSii = sii.filter((e) => !mine.some((m) => m.codigo === e.codigo));
  return [...mine, ...fromSii].sort((a, b) => String(a.fecha).localeCompare(String(b.fecha)));
}

/** How long a document the SII does not have is asked about at all, and asked about every 10 minutes. */
const NOT_AT_SII_GIVE_UP_MS = 30 * 24 * 60 * MINUTE;
const NOT_AT_SII_FAST_MS = 24 * 60 * MINUTE;
/** `received.deadline_near` is raised this long before `plazo_hasta` (API.md §12). */
export const DEADLINE_NEAR_MS = 2 * 24 * 60 * MINUTE;

/**
 * When to ask again: never once decided (here, elsewhere, or tacitly); every 10 minutes while the SII does not have
 * the document (its first day; then every 6 hours, up to 30 days); else every 6 hours, and also at the moment the
 * deadline warning is due and just after `plazo_hasta`, so neither waits for the next 6-hour check.
 */
function nextCheck(row: ReceivedDocumentRow, estado: ReceivedState, recibidoSiiAt: Date | null, plazoHasta: Date | null, now: Date): Date | null {
  if (estado !== "SIN_RESPUESTA") return null;
  const t = now.getTime();
  if (recibidoSiiAt === null || plazoHasta === null) {
    const waited = t - row.recibidoAt.getTime();
    if (waited > NOT_AT_SII_GIVE_UP_MS) return null;
    return new Date(t + (waited < NOT_AT_SII_FAST_MS ? 10 : 6 * 60) * MINUTE);
  }
  const candidates = [t + 6 * 60 * MINUTE, plazoHasta.getTime() - DEADLINE_NEAR_MS, plazoHasta.getTime() + MINUTE].filter((c) => c > t);
  return new Date(Math.min(...candidates));
}

/** Whether `received.deadline_near` is due now: undecided, within 2 days of `plazo_hasta`, not raised yet. */
const deadlineNear = (row: ReceivedDocumentRow, estado: ReceivedState, plazoHasta: Date | null, now: Date): boolean =>
  estado === "SIN_RESPUESTA" && row.deadlineWarnedAt === null && plazoHasta !== null && now.getTime() >= plazoHasta.getTime() - DEADLINE_NEAR_MS && now.getTime() <= plazoHasta.getTime();

/**
 * Asks the registry and stores what changed; null when the registry said nothing usable (asked again later) or the
 * row changed meanwhile. `openSession`: the worker's sessions for its round (default one opened for this call).
 */
export async function refreshRegistry(deps: Deps, row: ReceivedDocumentRow, openSession?: SessionOpener): Promise<ReceivedDocumentRow | null> {
  const now = deps.now();
  const answer = await askRegistry(deps, row, openSession);
  if (answer === null) {
    await deps.db.update(receivedDocuments).set({ registryCheckAt: new Date(now.getTime() + 10 * MINUTE) }).where(eq(receivedDocuments.id, row.id));
    return null;
  }
  const recibidoSiiAt = answer.recibidoSiiAt ?? row.recibidoSiiAt;
  const plazoHasta = recibidoSiiAt === null ? null : deadlineOf(recibidoSiiAt);
  const eventos = merge(row.eventos, answer.eventos);
  const estado = stateFromEvents(eventos, plazoHasta, now);
  const registryCheckAt = nextCheck(row, estado, recibidoSiiAt, plazoHasta, now);
  const decidedElsewhere = estado !== row.estado && estado !== "SIN_RESPUESTA";
  const warn = deadlineNear(row, estado, plazoHasta, now);
  return deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(receivedDocuments)
      .set({ recibidoSiiAt, plazoHasta, eventos, estado, registryCheckAt, updatedAt: now, ...(warn ? { deadlineWarnedAt: now } : {}) })
      .where(and(eq(receivedDocuments.id, row.id), eq(receivedDocuments.updatedAt, row.updatedAt)))
      .returning();
    if (!updated) return null; // changed meanwhile (a decision): the next check sees it
    const data = { received_id: row.id, emisor_rut: row.emisorRut, tipo: row.tipo, folio: row.folio, estado, plazo_hasta: plazoHasta?.toISOString() ?? null };
    if (decidedElsewhere) await recordEvent(tx, { businessId: row.businessId, environment: row.environment, event: "received.decided", at: now, data: { ...data, origen: "sii" } });
    if (warn) await recordEvent(tx, { businessId: row.businessId, environment: row.environment, event: "received.deadline_near", at: now, data });
    return updated;
  });
}
