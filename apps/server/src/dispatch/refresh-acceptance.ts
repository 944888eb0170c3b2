/**
 * `refreshAcceptance(deps, id)`: asks the SII's registry of acceptances and claims about one accepted factura
 * (listarEventosHistDoc, and consultarFechaRecepcionSii the first time) and stores what it says in
 * `documents.acceptance`, with the next check (`acceptance.ts`). A change of state or a new event is recorded as a
 * `dte.acceptance_changed` event (with its webhook delivery) in the same transaction. The update only applies if
 * the snapshot is still the one read (compared by its `consultado_at`), so the worker and a `?refresh=true` asking
 * at the same moment record a change once. An answer that changes nothing is one UPDATE, outside a transaction.
 * Used by `GET /dte/:id/aceptacion?refresh=true`; the acceptance worker gives `refreshDocumentAcceptance` the
 * documents its claim returned, and one SII session per business for its round.
 */
import { and, eq, sql } from "drizzle-orm";
import { SiiAuthError, SiiTransientError, type ReceiverEvent } from "@timbre/sii";
import { documentHeadColumns, documents, type AcceptanceSnapshot, type DocumentHead } from "../db/documents.js";
import type { Deps } from "../deps.js";
import { errorMessage } from "../log.js";
import { recordEvent } from "../modules/dte/change-state.js";
import { fromChileTimestamp } from "../modules/dte/chile-time.js";
import { ACCEPTANCE_GIVE_UP_MS, ACCEPTANCE_RETRY_MS, ACCEPTANCE_TIPOS, acceptanceState, newEvents, nextAcceptanceCheck } from "./acceptance.js";
import { openSiiSession, type SessionOpener } from "./sii-session.js";

/** listarEventosHistDoc: 15 lists the events, 16 says there are none; anything else says nothing about them. */
const LISTED = 15;
const NO_EVENTS = 16;

const ACCEPTED_STATES = new Set(["ACEPTADO", "ACEPTADO_CON_REPAROS"]);

/** Whether the registry can say anything about this document: an accepted 33/34/43. */
export const hasAcceptance = (doc: Pick<DocumentHead, "tipo" | "estado">): boolean => ACCEPTANCE_TIPOS.has(doc.tipo) && ACCEPTED_STATES.has(doc.estado);

async function load(deps: Deps, id: string): Promise<DocumentHead | null> {
  const [row] = await deps.db.select(documentHeadColumns).from(documents).where(eq(documents.id, id));
  return row ?? null;
}

const isoOf = (chileTime: string | null): string | null => (chileTime === null ? null : fromChileTimestamp(chileTime)?.toISOString() ?? null);

const presentEvent = (e: ReceiverEvent): AcceptanceSnapshot["eventos"][number] => ({
  codigo: e.codigo,
  descripcion: e.descripcion,
  rut_responsable: e.rutResponsable,
  fecha: isoOf(e.fecha) ?? e.fecha,
});

type Asked = { eventos: AcceptanceSnapshot["eventos"]; recibidoAt: string | null } | { silent: string };

/** The registry's answer, or why it said nothing usable (`silent`). */
async function ask(doc: DocumentHead, openSession: SessionOpener): Promise<Asked> {
  try {
    const session = await openSession(doc.businessId, doc.environment);
    const query = { rutEmisor: session.business.rut, tipo: doc.tipo, folio: doc.folio };
    const listed = await session.client.listReceiverEvents(query);
    if (listed.codigo !== LISTED && listed.codigo !== NO_EVENTS) return { silent: `${listed.codigo}: ${listed.descripcion}` };
    const recibidoAt = doc.acceptance?.recibido_sii_at ?? isoOf(await session.client.getSiiReceptionDate(query));
    return { eventos: listed.codigo === LISTED ? listed.eventos.map(presentEvent) : [], recibidoAt };
  } catch (error) {
    if (error instanceof SiiTransientError || error instanceof SiiAuthError) return { silent: errorMessage(error) };
    throw error;
  }
}

export interface AcceptanceRefresh {
  /** Whether a `dte.acceptance_changed` event was recorded (the caller wakes the webhook worker). */
  changed: boolean;
}

/**
 * Asks and applies (null when the document does not exist). Documents the registry does not cover are left
 * untouched, their next check cleared.
 */
export async function refreshAcceptance(deps: Deps, documentId: string): Promise<AcceptanceRefresh | null> {
  const doc = await load(deps, documentId);
  return doc ? refreshDocumentAcceptance(deps, doc) : null;
}

/** `refreshAcceptance` of a document already read; `openSession` may give a session the caller already opened. */
export async function refreshDocumentAcceptance(
  deps: Deps,
  doc: DocumentHead,
  openSession: SessionOpener = (businessId, environment) => openSiiSession(deps, businessId, environment),
): Promise<AcceptanceRefresh> {
  const unchanged = { changed: false };
  const guard = and(eq(documents.id, doc.id), sql`coalesce(${documents.acceptance}->>'consultado_at', '') = ${doc.acceptance?.consultado_at ?? ""}`);
  if (!hasAcceptance(doc)) {
    await deps.db.update(documents).set({ acceptanceCheckAt: null }).where(guard);
    return unchanged;
  }
  const now = deps.now();
  const asked = await ask(doc, openSession);
  if ("silent" in asked) {
    deps.log.warn("acceptance.unanswered", { dte_id: doc.id, tipo: doc.tipo, folio: doc.folio, answer: asked.silent });
    const giveUp = now.getTime() > doc.fechaEmision.getTime() + ACCEPTANCE_GIVE_UP_MS;
    await deps.db.update(documents).set({ acceptanceCheckAt: giveUp ? null : new Date(now.getTime() + ACCEPTANCE_RETRY_MS) }).where(guard);
    return unchanged;
  }
  const receivedAt = asked.recibidoAt === null ? null : new Date(asked.recibidoAt);
  const estado = acceptanceState(asked.eventos.map((e) => e.codigo), receivedAt, now);
  const snapshot: AcceptanceSnapshot = { estado, eventos: asked.eventos, recibido_sii_at: asked.recibidoAt, consultado_at: now.toISOString() };
  const next = receivedAt === null ? new Date(now.getTime() + ACCEPTANCE_RETRY_MS) : nextAcceptanceCheck(estado, receivedAt, now);
  const oldEstado = doc.acceptance?.estado ?? "SIN_RESPUESTA";
  const added = newEvents(doc.acceptance?.eventos ?? [], snapshot.eventos);
  const store = { acceptance: snapshot, acceptanceCheckAt: next };
  if (estado === oldEstado && added.length === 0) {
    await deps.db.update(documents).set(store).where(guard);
    return unchanged;
  }
  const changed = await deps.db.transaction(async (tx) => {
    const updated = await tx.update(documents).set(store).where(guard).returning({ id: documents.id });
    if (updated.length === 0) return false;
    await recordEvent(tx, {
      businessId: doc.businessId,
      environment: doc.environment,
      event: "dte.acceptance_changed",
      data: { dte_id: doc.id, tipo: doc.tipo, folio: doc.folio, old_status: oldEstado, new_status: estado, eventos: added, timestamp: now.toISOString() },
      at: now,
    });
    return true;
  });
  return { changed };
}
