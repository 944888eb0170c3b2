/**
 * `refreshDocumentStatus(deps, id)`: asks the SII about one document now and applies the answer (BRIEF §8).
 * ENVIADO with a track id → envelope status (QueryEstUp / boleta REST): EPR with counts → ACEPTADO /
 * ACEPTADO_CON_REPAROS / RECHAZADO; mixed counts → this document's line in the boleta detail, or QueryEstDte (with
 * the counts deciding reparos where they can, `acceptedOutOfMixed`);
 * envelope-level rejections → RECHAZADO — unless the SII holds another copy of the document: the envelope is a
 * repeated file (`RPT`), or the document was re-sent after an unanswered upload (`earlier-copy.ts`); QueryEstDte
 * `DOK` then makes it ACEPTADO. ENVIADO without a track id (reconciled) → QueryEstDte. PENDIENTE → the
 * reconciliation of an unknown upload. The `documents.sii` snapshot keeps the answer with hints for every code.
 * `refreshDocumentStatuses(deps, ids)` does the same for the poller's batch: one read of the documents, one
 * status query per envelope, and the final states of documents that share a verdict applied together in one
 * transaction (`changeDocumentStates`), so an envelope of N documents reaching ACEPTADO costs a few statements,
 * not N transactions.
 * Used by GET /dte/:id/status?refresh=true and the poller job.
 */
import { eq, inArray } from "drizzle-orm";
import { stateFromDocumentStatus, stateFromEnvelopeStatus } from "@timbre/core/lifecycle";
import { SiiAuthError, SiiTransientError, type DocumentVerdict, type EnvelopeStatus } from "@timbre/sii";
import { documentHeadColumns, documents, siiComparedTotal, type DocumentHead, type DocumentRow, type DocumentState, type SiiStatusSnapshot } from "../db/documents.js";
import type { Deps } from "../deps.js";
import { changeDocumentState, changeDocumentStates } from "../modules/dte/change-state.js";
import { firstAcceptanceCheckMs } from "./acceptance.js";
import { lineOf } from "./detail-line.js";
import { checkEarlierCopy, hasUnsettledEarlierEnvelope } from "./earlier-copy.js";
import { reconcileDocument } from "./reconcile-document.js";
import { envelopeKindOf, nextStatusCheckAt, OVERDUE_CHECKS, roundSessions, type SessionOpener, type SiiSession } from "./sii-session.js";
import { siiError, simpleSnapshot, snapshotFromEnvelope, type SiiError } from "./sii-snapshot.js";
import { errorMessage } from "../log.js";
import { forEachConcurrently, memo } from "../concurrency.js";

type Final = Exclude<DocumentState, "PENDIENTE" | "ENVIADO">;
interface Verdict {
  to: Final | null;
  sii: SiiStatusSnapshot;
  detalle: string;
}

/**
 * What documents refreshed together (one poller batch) share: the SII session of a business and the status of
 * an envelope, so that the documents of one envelope cost one status query, not one each. Answers are reused only
 * within the refresh that asked.
 */
interface RefreshShared {
  session: SessionOpener;
  envelopeStatuses: Map<string, Promise<EnvelopeStatus>>;
}

const newRefreshShared = (deps: Deps): RefreshShared => ({ session: roundSessions(deps), envelopeStatuses: new Map() });

async function load(deps: Deps, id: string): Promise<DocumentRow | null> {
  const [row] = await deps.db.select().from(documents).where(eq(documents.id, id));
  return row ?? null;
}

/** What the SII says about an ENVIADO document now: a verdict, or `unavailable` (transient failure, ask later). */
async function assess(deps: Deps, doc: DocumentHead, shared: RefreshShared, at: Date): Promise<Verdict | "unavailable"> {
  try {
    const session = await shared.session(doc.businessId, doc.environment);
    return doc.trackId ? await fromEnvelope(deps, session, doc, doc.trackId, shared, at) : await fromDocumentStatus(session, doc, null, at);
  } catch (error) {
    if (error instanceof SiiAuthError) {
      deps.log.error("sii.authentication_refused", { document_id: doc.id, estado: error.status });
      return "unavailable";
    }
    if (!(error instanceof SiiTransientError)) throw error;
    deps.log.warn("sii.status_unavailable", { document_id: doc.id, reason: error.reason });
    return "unavailable";
  }
}

/**
 * Not final yet (still processing, or the SII did not answer): keep the snapshot, ask again after the back-off. An
 * overdue document (`OVERDUE_CHECKS`) is reported at each of its (hourly, then 6-hourly) checks as
 * `sii.status_overdue`, for an operator to look at: the SII's answer is kept in its `/status`.
 */
async function reschedule(deps: Deps, doc: DocumentHead, at: Date, sii?: SiiStatusSnapshot): Promise<void> {
  const attempts = doc.checkAttempts + 1;
  if (attempts >= OVERDUE_CHECKS) {
    deps.log.warn("sii.status_overdue", { document_id: doc.id, tipo: doc.tipo, folio: doc.folio, checks: attempts, estado_envio: (sii ?? doc.sii)?.estado_envio ?? null, track_id: doc.trackId });
  }
  await deps.db
    .update(documents)
    .set({ ...(sii ? { sii } : {}), checkAttempts: attempts, nextCheckAt: nextStatusCheckAt(deps, attempts, at), updatedAt: at })
    .where(eq(documents.id, doc.id));
}

/** Returns the document after the refresh (null when it does not exist). */
export async function refreshDocumentStatus(deps: Deps, documentId: string): Promise<DocumentRow | null> {
  const doc = await load(deps, documentId);
  if (!doc) return null;
  if (doc.estado === "PENDIENTE") {
    await reconcileDocument(deps, documentId);
    return load(deps, documentId);
  }
  if (doc.estado !== "ENVIADO") return doc;
  const at = deps.now();
  const verdict = await assess(deps, doc, newRefreshShared(deps), at);
  if (verdict === "unavailable" || verdict.to === null) await reschedule(deps, doc, at, verdict === "unavailable" ? undefined : verdict.sii);
  else await deps.db.transaction((tx) => changeDocumentState(tx, { document: doc, to: verdict.to!, at, detalle: verdict.detalle, set: { sii: verdict.sii, nextCheckAt: null }, acceptanceCheckAfterMs: firstAcceptanceCheckMs(deps.config) }));
  return load(deps, documentId);
}

export interface RefreshBatchOptions {
  /** SII queries in flight at once. */
  concurrency?: number;
}

/**
 * The poller's refresh of several documents. Returns the ids whose next check it settled (rescheduled or final);
 * the caller releases the others (a failure, a PENDIENTE document, one changed meanwhile by someone else).
 */
export async function refreshDocumentStatuses(deps: Deps, ids: string[], options: RefreshBatchOptions = {}): Promise<Set<string>> {
  const settled = new Set<string>();
  if (ids.length === 0) return settled;
  const shared = newRefreshShared(deps);
  const at = deps.now();
  const rows = await deps.db.select(documentHeadColumns).from(documents).where(inArray(documents.id, ids));
  const finals = new Map<string, { verdict: Verdict & { to: Final }; docs: DocumentHead[] }>();
  const step = async (doc: DocumentHead) => {
    try {
      if (doc.estado === "PENDIENTE") {
        await reconcileDocument(deps, doc.id);
        return;
      }
      if (doc.estado !== "ENVIADO") return;
      const verdict = await assess(deps, doc, shared, at);
      if (verdict === "unavailable" || verdict.to === null) {
        await reschedule(deps, doc, at, verdict === "unavailable" ? undefined : verdict.sii);
        settled.add(doc.id);
        return;
      }
      // Documents with the same verdict (typically a whole envelope) change together.
      const key = JSON.stringify([verdict.to, verdict.detalle, verdict.sii]);
      const group = finals.get(key) ?? { verdict: verdict as Verdict & { to: Final }, docs: [] };
      group.docs.push(doc);
      finals.set(key, group);
    } catch (error) {
      deps.log.warn("poll.refresh_failed", { dte_id: doc.id, error: errorMessage(error) });
    }
  };
  const concurrency = options.concurrency ?? 8;
  await forEachConcurrently(rows, concurrency, step);
  if (finals.size > 0) {
    const applied = await deps.db.transaction((tx) =>
      Promise.all(
        [...finals.values()].map(({ verdict, docs }) =>
          changeDocumentStates(tx, { documents: docs, to: verdict.to, at, detalle: verdict.detalle, set: { sii: verdict.sii, nextCheckAt: null }, acceptanceCheckAfterMs: firstAcceptanceCheckMs(deps.config) }),
        ),
      ),
    );
    for (const set of applied) for (const id of set) settled.add(id);
  }
  return settled;
}

function lineErrors(line: DocumentVerdict): SiiError[] {
  return line.errors.map((e) => siiError(e.codigo, "document", e.descripcion));
}

/**
 * A rejection is checked against the SII before it is believed when another copy of the document may stand: the
 * envelope is a repeated file (`RPT`: nothing of it registered — the first upload's verdict is the document's), or
 * an earlier envelope of the document has an unknown outcome (`earlier-copy.ts`).
 */
async function fromEnvelope(deps: Deps, session: SiiSession, doc: DocumentHead, trackId: string, shared: RefreshShared, at: Date): Promise<Verdict> {
  const verdict = await envelopeVerdictFor(deps, session, doc, trackId, shared, at);
  if (verdict.to !== "RECHAZADO") return verdict;
  const repeatedFile = verdict.sii.estado_envio === "RPT";
  if (!repeatedFile && !(await hasUnsettledEarlierEnvelope(deps, doc))) return verdict;
  const earlier = await checkEarlierCopy(session, doc, verdict.sii, repeatedFile ? "repeated_file" : "resent");
  return earlier.accepted ? { to: "ACEPTADO", sii: earlier.sii, detalle: earlier.detalle } : { ...verdict, sii: earlier.sii };
}

async function envelopeVerdictFor(deps: Deps, session: SiiSession, doc: DocumentHead, trackId: string, shared: RefreshShared, at: Date): Promise<Verdict> {
  const kind = envelopeKindOf(doc.tipo);
  const status = await memo(shared.envelopeStatuses, `${session.business.rut}|${kind}|${trackId}`, () =>
    session.client.getUploadStatus({ trackId, rutEmisor: session.business.rut, kind }),
  );
  const verdict = stateFromEnvelopeStatus({ estado: status.estado, ...(status.errCode === null ? {} : { errCode: status.errCode }), porTipo: status.counts.map((c) => ({ ...c })) }, { tipo: doc.tipo });
  const snapshot = (errores: SiiError[]) => snapshotFromEnvelope(status, doc.tipo, errores, at);
  if (verdict.kind === "processing" || verdict.kind === "unknown") {
    if (verdict.kind === "unknown") deps.log.warn("sii.unknown_status", { document_id: doc.id, estado: status.estado, reason: verdict.reason });
    return { to: null, sii: snapshot([]), detalle: "" };
  }
  if (verdict.kind === "final") {
    const line = lineOf(status, doc);
    const own = line === null || line === "unsure" ? null : lineErrors(line);
    const errores = verdict.envelopeLevel
      ? [siiError(status.estado, "envelope", status.glosa ?? undefined)]
      : own ?? (verdict.state === "ACEPTADO" ? [] : [siiError(verdict.state === "RECHAZADO" ? "RCH" : "RPR", "envelope")]);
    return { to: verdict.state, sii: snapshot(errores), detalle: detalleOf(verdict.state, status.estado, errores) };
  }
  // Mixed or missing counts: resolve this document alone — from the SII's per-document detail when it names it
  // without doubt, else with QueryEstDte.
  const line = status.documents === undefined ? "unsure" : lineOf(status, doc);
  if (line !== "unsure") {
    const errores = line ? lineErrors(line) : [];
    const to: Final = !line ? "ACEPTADO" : line.estado === "RCH" ? "RECHAZADO" : "ACEPTADO_CON_REPAROS";
    return { to, sii: snapshot(errores), detalle: detalleOf(to, status.estado, errores) };
  }
  return fromDocumentStatus(session, doc, status, at);
}

/**
 * A document QueryEstDte reports received (DOK) out of an envelope with mixed counts: QueryEstDte does not tell
 * reparos apart, the envelope's counts of its tipo may. When every document of the tipo not rejected carries a
 * reparo, this one does: ACEPTADO_CON_REPAROS. When only some do, the SII's web services do not say which (its
 * result e-mail does): ACEPTADO, with the count shown as an `RPR` line in `/status` rather than hidden.
 */
function acceptedOutOfMixed(envelope: EnvelopeStatus, tipo: number): { to: Final; errores: SiiError[] } {
  const counts = envelope.counts.find((c) => c.tipo === tipo);
  if (!counts || counts.reparos <= 0) return { to: "ACEPTADO", errores: [] };
  const notRejected = (counts.informados > 0 ? counts.informados : counts.aceptados + counts.rechazados) - counts.rechazados;
  if (counts.reparos >= notRejected) return { to: "ACEPTADO_CON_REPAROS", errores: [siiError("RPR", "envelope")] };
  const line = siiError("RPR", "envelope", `${counts.reparos} de los ${notRejected} documentos tipo ${tipo} aceptados en este envío tienen reparos; el SII no indica cuáles por servicio web`);
  return { to: "ACEPTADO", errores: [{ ...line, ayuda: `Revise el correo de resultado del envío ${envelope.trackId} que el SII envía a la empresa: indica qué documentos tienen reparos.` }] };
}

async function fromDocumentStatus(session: SiiSession, doc: DocumentHead, envelope: EnvelopeStatus | null, at: Date): Promise<Verdict> {
  const status = await session.client.getDocumentStatus({ rutEmisor: session.business.rut, rutReceptor: doc.receptorRut, tipo: doc.tipo, folio: doc.folio, fecha: doc.fecha, monto: siiComparedTotal(doc) });
  const verdict = stateFromDocumentStatus(status.estado);
  const base = envelope ? snapshotFromEnvelope(envelope, doc.tipo, [], at) : simpleSnapshot(status.estado, status.glosa, [], at);
  if (verdict.kind === "received" && envelope) {
    const { to, errores } = acceptedOutOfMixed(envelope, doc.tipo);
    return { to, sii: { ...base, errores }, detalle: detalleOf(to, status.estado, errores) };
  }
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
