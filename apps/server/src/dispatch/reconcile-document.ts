/**
 * Before a PENDIENTE document is uploaded again, make sure the SII does not already have it (BRIEF §8
 * UPLOAD_UNKNOWN): its last envelope may have reached the SII without us reading the answer.
 * - envelope `failed` → released; `building` for longer than `BUILDING_ABANDONED_MS` (its process stopped between
 *   claiming and storing it, so it never reached the SII) → given up (`failed`, compare-and-set: a live builder
 *   that is merely slow then finds it failed and does not upload) and released;
 * - envelope `uploaded` with a track id (a crash before the state change) → ENVIADO with that track id;
 * - envelope `unknown`/`uploading` → after a quiet period (the SII may still be processing it; for `uploading`, at
 *   least the SII request timeout, as its upload may still be in flight), QueryEstDte:
 *   the SII has it (DOK, DNK, …) → ENVIADO (status then follows QueryEstDte); FAU/FNA/FAN → released.
 */
import { and, eq } from "drizzle-orm";
import { stateFromDocumentStatus } from "@timbre/core/lifecycle";
import { SiiAuthError, SiiTransientError } from "@timbre/sii";
import { documentHeadColumns, documents, envelopes, siiComparedTotal, type DocumentHead } from "../db/documents.js";
import type { Deps } from "../deps.js";
import { changeDocumentState } from "../modules/dte/change-state.js";
import { siiRequestMs } from "../sii/gateway.js";
import { nextCheckAt, openSiiSession } from "./sii-session.js";
import { siiError, simpleSnapshot } from "./sii-snapshot.js";

export type ReconcileOutcome =
  /** Not PENDIENTE, or in no envelope: nothing to reconcile. */
  | "not_needed"
  /** The SII has it: now ENVIADO. */
  | "received"
  /** The SII does not have it: released, upload it again. */
  | "not_received"
  /** Too early to tell (the envelope may still be in flight or processing). */
  | "wait"
  /** The SII could not be asked now. */
  | "unavailable";

/** Building an envelope takes milliseconds; one still `building` after this was left by a stopped process. */
export const BUILDING_ABANDONED_MS = 30_000;

/** How long after an unanswered upload the SII should have registered it (sandbox: a few processing steps). */
export function quietPeriodMs(deps: Deps): number {
  return deps.config.siiMode === "sandbox" ? deps.config.siiSandboxStepMs * 6 : 5 * 60_000;
}

const ABANDONED_DETAIL = "abandoned while building: its process stopped before the upload";

async function releaseDocument(deps: Deps, doc: DocumentHead): Promise<"not_received"> {
  await deps.db.update(documents).set({ envelopeId: null, updatedAt: deps.now() }).where(eq(documents.id, doc.id));
  return "not_received";
}

export async function reconcileDocument(deps: Deps, documentId: string, options: { quietMs?: number } = {}): Promise<ReconcileOutcome> {
  const [doc] = await deps.db.select(documentHeadColumns).from(documents).where(eq(documents.id, documentId));
  if (!doc || doc.estado !== "PENDIENTE" || doc.envelopeId === null) return "not_needed";
  const [envelope] = await deps.db.select().from(envelopes).where(eq(envelopes.id, doc.envelopeId));
  const now = deps.now();
  if (!envelope || envelope.status === "failed" || envelope.status === "refused") return releaseDocument(deps, doc);
  if (envelope.status === "building") {
    if (envelope.updatedAt.getTime() + BUILDING_ABANDONED_MS > now.getTime()) return "wait";
    const given = await deps.db
      .update(envelopes)
      .set({ status: "failed", detail: ABANDONED_DETAIL, updatedAt: now })
      .where(and(eq(envelopes.id, envelope.id), eq(envelopes.status, "building")))
      .returning({ id: envelopes.id });
    if (given.length > 0) return releaseDocument(deps, doc);
    // Someone moved it on meanwhile (stored for upload, or gave it up first): look again next time.
    return "wait";
  }
  if (envelope.status === "uploaded" && envelope.trackId) {
    const trackId = envelope.trackId;
    const ok = await deps.db.transaction((tx) =>
      changeDocumentState(tx, { document: doc, to: "ENVIADO", at: now, detalle: `reconciliado: track id ${trackId}`, set: { trackId, nextCheckAt: now, checkAttempts: 0 } }),
    );
    return ok ? "received" : "not_needed";
  }
  const quiet = options.quietMs ?? quietPeriodMs(deps);
  // An `uploading` envelope's upload may still be in flight (another process, or this one): never before the
  // client's own timeout has passed — asking the SII earlier would read a FAU and send the folios again.
  const inFlight = envelope.status === "uploading" ? siiRequestMs(deps.config) + 1_000 : 0;
  if (envelope.updatedAt.getTime() + Math.max(quiet, inFlight) > now.getTime()) return "wait";
  try {
    const session = await openSiiSession(deps, doc.businessId, doc.environment);
    const status = await session.client.getDocumentStatus({
      rutEmisor: session.business.rut,
      rutReceptor: doc.receptorRut,
      tipo: doc.tipo,
      folio: doc.folio,
      fecha: doc.fecha,
      monto: siiComparedTotal(doc),
    });
    const verdict = stateFromDocumentStatus(status.estado);
    if (verdict.kind === "not_received" || verdict.kind === "refused") return releaseDocument(deps, doc);
    if (verdict.kind !== "received" && verdict.kind !== "mismatch") return "unavailable";
    const at = deps.now();
    const sii = simpleSnapshot(status.estado, status.glosa, verdict.kind === "mismatch" ? [siiError(status.estado, "estdte")] : [], at);
    const ok = await deps.db.transaction((tx) =>
      changeDocumentState(tx, { document: doc, to: "ENVIADO", at, detalle: `reconciliado: el SII ya tiene el documento (${status.estado})`, set: { sii, nextCheckAt: nextCheckAt(deps, 0, at), checkAttempts: 0 } }),
    );
    return ok ? "received" : "not_needed";
  } catch (error) {
    if (error instanceof SiiTransientError || error instanceof SiiAuthError) return "unavailable";
    throw error;
  }
}
