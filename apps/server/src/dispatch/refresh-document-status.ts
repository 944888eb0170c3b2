/**
 * `refreshDocumentStatus(deps, id)`: asks the SII about one document now and applies the answer (BRIEF §8).
 * ENVIADO with a track id → envelope status (QueryEstUp / boleta REST): EPR with counts → ACEPTADO /
 * ACEPTADO_CON_REPAROS / RECHAZADO; mixed counts → this document's line in the boleta detail, or QueryEstDte;
 * envelope-level rejections → RECHAZADO. ENVIADO without a track id (reconciled) → QueryEstDte. PENDIENTE → the
 * reconciliation of an unknown upload. The `documents.sii` snapshot keeps the answer with hints for every code.
 * Used by GET /dte/:id/status?refresh=true and the poller job.
 */
import { eq } from "drizzle-orm";
import { stateFromDocumentStatus, stateFromEnvelopeStatus } from "@timbre/core/lifecycle";
import { SiiTransientError, type EnvelopeStatus } from "@timbre/sii";
import { documents, type DocumentRow, type DocumentState, type SiiStatusSnapshot } from "../db/documents.js";
import type { Deps } from "../deps.js";
import { changeDocumentState } from "../modules/dte/change-state.js";
import { reconcileDocument } from "./reconcile-document.js";
import { envelopeKindOf, nextCheckAt, openSiiSession, type SiiSession } from "./sii-session.js";
import { siiError, simpleSnapshot, snapshotFromEnvelope, type SiiError } from "./sii-snapshot.js";

type Final = Exclude<DocumentState, "PENDIENTE" | "ENVIADO">;
interface Verdict {
  to: Final | null;
  sii: SiiStatusSnapshot;
  detalle: string;
}

/**
 * What documents refreshed together (one poller tick) may share: the SII session of a business and the status of
 * an envelope, so that the documents of one envelope cost one status query, not one each. Answers are reused only
 * within the tick that asked.
 */
export interface RefreshShared {
  sessions: Map<string, Promise<SiiSession>>;
  envelopeStatuses: Map<string, Promise<EnvelopeStatus>>;
  /** Read the document back after the refresh (the poller does not need it: `false` saves a query). */
  reload: boolean;
}

export const newRefreshShared = (reload = true): RefreshShared => ({ sessions: new Map(), envelopeStatuses: new Map(), reload });

function memo<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = map.get(key);
  if (!value) {
    value = make();
    map.set(key, value);
  }
  return value;
}

async function load(deps: Deps, id: string): Promise<DocumentRow | null> {
  const [row] = await deps.db.select().from(documents).where(eq(documents.id, id));
  return row ?? null;
}

/** Returns the document after the refresh (null when it does not exist). */
export async function refreshDocumentStatus(deps: Deps, documentId: string, shared: RefreshShared = newRefreshShared()): Promise<DocumentRow | null> {
  const doc = await load(deps, documentId);
  if (!doc) return null;
  if (doc.estado === "PENDIENTE") {
    await reconcileDocument(deps, documentId);
    return shared.reload ? load(deps, documentId) : doc;
  }
  if (doc.estado !== "ENVIADO") return doc;
  let verdict: Verdict;
  try {
    const session = await memo(shared.sessions, `${doc.businessId}|${doc.environment}`, () => openSiiSession(deps, doc.businessId, doc.environment));
    verdict = doc.trackId ? await fromEnvelope(deps, session, doc, doc.trackId, shared) : await fromDocumentStatus(deps, session, doc, null);
  } catch (error) {
    if (!(error instanceof SiiTransientError)) throw error;
    await deps.db
      .update(documents)
      .set({ checkAttempts: doc.checkAttempts + 1, nextCheckAt: nextCheckAt(deps, doc.checkAttempts + 1), updatedAt: deps.now() })
      .where(eq(documents.id, doc.id));
    deps.log.warn("sii.status_unavailable", { document_id: doc.id, reason: error.reason });
    return shared.reload ? load(deps, documentId) : doc;
  }
  await apply(deps, doc, verdict);
  return shared.reload ? load(deps, documentId) : doc;
}

async function apply(deps: Deps, doc: DocumentRow, verdict: Verdict): Promise<void> {
  const at = deps.now();
  if (verdict.to === null) {
    const attempts = doc.checkAttempts + 1;
    await deps.db.update(documents).set({ sii: verdict.sii, checkAttempts: attempts, nextCheckAt: nextCheckAt(deps, attempts, at), updatedAt: at }).where(eq(documents.id, doc.id));
    return;
  }
  const to = verdict.to;
  await deps.db.transaction((tx) => changeDocumentState(tx, { document: doc, to, at, detalle: verdict.detalle, set: { sii: verdict.sii, nextCheckAt: null } }));
}

function documentErrors(status: EnvelopeStatus, doc: DocumentRow): SiiError[] | null {
  const line = status.documents?.find((d) => d.tipo === doc.tipo && d.folio === doc.folio);
  if (!line) return null;
  return line.errors.map((e) => siiError(e.codigo, "document", e.descripcion));
}

async function fromEnvelope(deps: Deps, session: SiiSession, doc: DocumentRow, trackId: string, shared: RefreshShared): Promise<Verdict> {
  const kind = envelopeKindOf(doc.tipo);
  const status = await memo(shared.envelopeStatuses, `${session.business.rut}|${kind}|${trackId}`, () =>
    session.client.getUploadStatus({ trackId, rutEmisor: session.business.rut, kind }),
  );
  const verdict = stateFromEnvelopeStatus({ estado: status.estado, ...(status.errCode === null ? {} : { errCode: status.errCode }), porTipo: status.counts.map((c) => ({ ...c })) }, { tipo: doc.tipo });
  const at = deps.now();
  const snapshot = (errores: SiiError[]) => snapshotFromEnvelope(status, doc.tipo, errores, at);
  if (verdict.kind === "processing" || verdict.kind === "unknown") {
    if (verdict.kind === "unknown") deps.log.warn("sii.unknown_status", { document_id: doc.id, estado: status.estado, reason: verdict.reason });
    return { to: null, sii: snapshot([]), detalle: "" };
  }
  if (verdict.kind === "final") {
    const own = documentErrors(status, doc);
    const errores = verdict.envelopeLevel
      ? [siiError(status.estado, "envelope", status.glosa ?? undefined)]
      : own ?? (verdict.state === "ACEPTADO" ? [] : [siiError(verdict.state === "RECHAZADO" ? "RCH" : "RPR", "envelope")]);
    return { to: verdict.state, sii: snapshot(errores), detalle: detalleOf(verdict.state, status.estado, errores) };
  }
  // Mixed or missing counts: resolve this document alone.
  if (status.documents !== undefined) {
    const line = status.documents.find((d) => d.tipo === doc.tipo && d.folio === doc.folio);
    const errores = documentErrors(status, doc) ?? [];
    const to: Final = !line ? "ACEPTADO" : line.estado === "RCH" ? "RECHAZADO" : "ACEPTADO_CON_REPAROS";
    return { to, sii: snapshot(errores), detalle: detalleOf(to, status.estado, errores) };
  }
  return fromDocumentStatus(deps, session, doc, status);
}

async function fromDocumentStatus(deps: Deps, session: SiiSession, doc: DocumentRow, envelope: EnvelopeStatus | null): Promise<Verdict> {
  const status = await session.client.getDocumentStatus({ rutEmisor: session.business.rut, rutReceptor: doc.receptorRut, tipo: doc.tipo, folio: doc.folio, fecha: doc.fecha, monto: doc.montoTotal });
  const verdict = stateFromDocumentStatus(status.estado);
  const at = deps.now();
  const base = envelope ? snapshotFromEnvelope(envelope, doc.tipo, [], at) : simpleSnapshot(status.estado, status.glosa, [], at);
  // FAU after the envelope was processed (EPR) means the SII did not register it: rejected.
  const to: Final | null = verdict.kind === "received" ? "ACEPTADO" : verdict.kind === "refused" ? "RECHAZADO" : verdict.kind === "not_received" && envelope?.estado === "EPR" ? "RECHAZADO" : null;
  const errores = to === null || to === "ACEPTADO" ? (verdict.kind === "mismatch" ? [siiError(status.estado, "estdte")] : []) : [siiError(status.estado, "estdte", status.glosa ?? undefined)];
  return { to, sii: { ...base, errores }, detalle: to ? detalleOf(to, status.estado, errores) : "" };
}

function detalleOf(to: Final, estado: string, errores: SiiError[]): string {
  const first = errores[0];
  const words = { ACEPTADO: "aceptado por el SII", ACEPTADO_CON_REPAROS: "aceptado con reparos por el SII", RECHAZADO: "rechazado por el SII" }[to];
  return first ? `${words} (${estado}; ${first.codigo}: ${first.descripcion})` : `${words} (${estado})`;
}
