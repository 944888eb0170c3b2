/**
 * One group-commit flush: claim the PENDIENTE documents (those not already in an envelope), build and sign ONE
 * envelope, store it BEFORE uploading (`uploading`), upload, then apply the answer. Documents the emission holds as
 * just created are built into the envelope first and claimed with its store in one statement
 * (`store-held-envelope.ts`); the others are claimed (`building`), built and stored. Then:
 * - track id → every document ENVIADO (one statement with the envelope's `uploaded`);
 * - refusal (STATUS 1/6/7/8) → RECHAZADO with the SII's detail and hint;
 * - the SII did not authenticate us (token refused: certificate, registration) → nothing was sent, no verdict on
 *   any document: they stay PENDIENTE (released, retried with back-off) and `/status` shows why;
 * - transient failure → documents stay PENDIENTE; the envelope is `unknown` when the upload may have reached the
 *   SII (reconcile before re-sending), `failed` when it certainly did not (the documents are released).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { stateFromUploadStatus } from "@timbre/core/lifecycle";
import { decodeLatin1, encodeLatin1 } from "@timbre/core/xml";
import { SiiAuthError, SiiRefusedError, SiiTransientError } from "@timbre/sii";
import type { Environment } from "../db/api-keys.js";
import type { BusinessRow } from "../db/businesses.js";
import { asyncCommitCondition } from "../db/async-commit.js";
import { columnName as col } from "../db/columns.js";
import { documents, envelopes, type DocumentRow, type DocumentState, type SiiStatusSnapshot } from "../db/documents.js";
import { storedEnvelope, type StoredEnvelope } from "../db/envelope-layout.js";
import { planEachCall } from "../db/preparing-client.js";
import { rowsOf } from "../db/rows.js";
import type { Deps } from "../deps.js";
import { newId } from "../ids.js";
import { chileTimestamp } from "../modules/dte/chile-time.js";
import { changeDocumentStates } from "../modules/dte/change-state.js";
import { resolutionOf } from "../modules/dte/prepare-emission.js";
import { nextCheckAt, openSiiSession, type SiiSession } from "./sii-session.js";
import { claimableDocuments } from "./claimable-documents.js";
import { storeHeldEnvelope } from "./store-held-envelope.js";
import { siiError, simpleSnapshot } from "./sii-snapshot.js";
import { errorMessage } from "../log.js";

export interface SubmitOutcome {
  id: string;
  estado: DocumentState;
  /** When this upload changed the document: the columns it wrote (the caller's copy of the row + these = the row). */
  applied?: Partial<DocumentRow>;
}

export interface GroupKey {
  businessId: string;
  environment: Environment;
  kind: "EnvioDTE" | "EnvioBOLETA";
}

/** Documents one envelope may carry (the SII's limits: EnvioBOLETA 500, EnvioDTE 2000). */
export const maxEnvelopeDocuments = (kind: GroupKey["kind"]): number => (kind === "EnvioBOLETA" ? 500 : 2000);

export const groupKeyOf = (k: GroupKey): string => `${k.businessId}|${k.environment}|${k.kind}`;

export function parseGroupKey(key: string): GroupKey {
  const [businessId = "", environment, kind] = key.split("|");
  return { businessId, environment: environment === "live" ? "live" : "test", kind: kind === "EnvioBOLETA" ? "EnvioBOLETA" : "EnvioDTE" };
}

/**
 * The upload may have reached the SII: only failures the SII answered without receiving the envelope are certain —
 * an HTML page, a token refusal, a 4xx that is no verdict, and an upload STATUS core reads as "retry" (2, 3, 5, 9).
 * Any other STATUS (99 "ya recibido", one not in the manual, 0 without a TRACKID) may mean the SII has it.
 */
function mayHaveArrived(error: SiiTransientError): boolean {
  if (error.operation !== "uploadEnvelope") return false;
  if (["html", "token", "request_refused"].includes(error.reason)) return false;
  return !(error.reason === "status" && error.status !== undefined && stateFromUploadStatus(error.status).kind === "retry");
}

async function currentStates(deps: Deps, ids: string[]): Promise<SubmitOutcome[]> {
  const rows = ids.length === 0 ? [] : await deps.db.select({ id: documents.id, estado: documents.estado }).from(documents).where(inArray(documents.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r.estado]));
  return ids.map((id) => ({ id, estado: byId.get(id) ?? "PENDIENTE" }));
}

/**
 * What an envelope needs of each document it carries; `envelopeC14n` when the document was just signed in this
 * process (`SignedDte.envelopeC14n`: the envelope need not canonicalize its XML again).
 */
export type ClaimedDocument = Pick<DocumentRow, "id" | "businessId" | "environment" | "tipo" | "folio" | "estado" | "checkAttempts" | "xml"> & { envelopeC14n?: string };

interface ClaimedRaw {
  id: string;
  business_id: string;
  environment: Environment;
  tipo: number;
  folio: number;
  estado: DocumentState;
  check_attempts: number;
  xml: Uint8Array;
}

/**
 * Claims the documents for a new envelope in ONE statement: the envelope row (`building`) is inserted by a CTE
 * of the UPDATE that points the documents at it (both or neither happen). When every document was claimed by
 * someone else first, the empty envelope row is removed. The claim's commit does not wait for the disk
 * (`db/async-commit.ts`): `storeForUpload` commits synchronously before any upload, which makes the claim durable
 * too (the log is flushed in order); a crash before that loses only a claim nobody acted on.
 *
 * The documents are locked by primary key only (`claimableDocuments`) whatever the statistics say, and the statement
 * is planned on every call (`planEachCall`): a generic plan made while `documents` was young found the ids through
 * the business's index and filtered every document of the business (bench/RESULTS.md, "plan per call").
 */
async function claim(deps: Deps, group: GroupKey, ids: string[], envelopeId: string): Promise<ClaimedDocument[]> {
  const now = deps.now().toISOString();
  const statement = sql`
    with ${claimableDocuments(group, ids)},
    new_envelope as (
      insert into ${envelopes} (${col(envelopes.id)}, ${col(envelopes.businessId)}, ${col(envelopes.environment)}, ${col(envelopes.kind)}, ${col(envelopes.xml)}, ${col(envelopes.status)}, ${col(envelopes.createdAt)}, ${col(envelopes.updatedAt)})
      values (${envelopeId}, ${group.businessId}, ${group.environment}, ${group.kind}, decode('', 'hex'), 'building', ${now}::timestamptz, ${now}::timestamptz)
    )
    update ${documents} set ${col(documents.envelopeId)} = ${envelopeId}
    where ${col(documents.id)} in (select id from claimable) and ${asyncCommitCondition}
    returning ${col(documents.id)} as id, ${col(documents.businessId)} as business_id, ${col(documents.environment)} as environment,
      ${col(documents.tipo)} as tipo, ${col(documents.folio)} as folio, ${col(documents.estado)} as estado,
      ${col(documents.checkAttempts)} as check_attempts, ${col(documents.xml)} as xml`;
  const rows = rowsOf<ClaimedRaw>(await deps.db.execute(planEachCall(statement))).map((r) => ({
    id: r.id,
    businessId: r.business_id,
    environment: r.environment,
    tipo: Number(r.tipo),
    folio: Number(r.folio),
    estado: r.estado,
    checkAttempts: Number(r.check_attempts),
    xml: new Uint8Array(r.xml),
  }));
  if (rows.length === 0) await deps.db.delete(envelopes).where(eq(envelopes.id, envelopeId));
  return rows.sort(byTipoAndFolio);
}

/**
 * Stores the built envelope (`uploading`) before its upload — only while it is still `building`: when a reconciler
 * gave it up as abandoned first (`failed`, documents released), returns false and it must not be uploaded.
 */
export async function storeForUpload(deps: Deps, envelopeId: string, stored: StoredEnvelope): Promise<boolean> {
  const updated = await deps.db
    .update(envelopes)
    .set({ xml: stored.xml, layout: stored.layout, status: "uploading", updatedAt: deps.now() })
    .where(and(eq(envelopes.id, envelopeId), eq(envelopes.status, "building")))
    .returning({ id: envelopes.id });
  return updated.length > 0;
}

/** A document to upload; `held` when the caller has it as just created (`store-held-envelope.ts`). */
export interface SubmitItem {
  id: string;
  held?: ClaimedDocument;
  /** The business row the emission read for this document (signed with its certificate): spares the upload a read. */
  business?: BusinessRow;
}

/**
 * The business row every item carries — the same business in the same version (`updated_at`), read by the
 * emissions themselves — else undefined (the upload reads it).
 */
export function carriedBusiness(group: GroupKey, items: SubmitItem[]): BusinessRow | undefined {
  const first = items[0]?.business;
  if (first?.id !== group.businessId) return undefined;
  const version = first.updatedAt.getTime();
  return items.every((i) => i.business?.id === first.id && i.business.updatedAt.getTime() === version) ? first : undefined;
}

/** The signed envelope of these documents (in the order given), built on the signer's threads (`deps.signer`). */
export async function envelopeBytes(deps: Deps, session: SiiSession, group: GroupKey, docs: ClaimedDocument[]): Promise<Uint8Array> {
  const resolution = resolutionOf(session.business, group.environment, session.signer);
  if (!resolution) throw new Error("no SII resolution for a live envelope");
  const xml = await deps.signer.signEnvelope({
    kind: group.kind,
    rutEmisor: session.business.rut,
    rutEnvia: session.signer.identity.holderRut,
    resolution,
    dtes: docs.map((d) => (d.envelopeC14n === undefined ? decodeLatin1(d.xml) : { xml: decodeLatin1(d.xml), envelopeC14n: d.envelopeC14n })),
    identity: session.signer.identity,
    timestamp: chileTimestamp(deps.now()),
  });
  return encodeLatin1(xml);
}

export const byTipoAndFolio = (a: ClaimedDocument, b: ClaimedDocument) => a.tipo - b.tipo || a.folio - b.folio;

/**
 * When every item is held: build the envelope, then claim and store it in one statement. Null when that is not
 * possible (an item not held, one no longer claimable, the envelope not buildable): the general path decides.
 */
async function claimHeld(deps: Deps, session: SiiSession, group: GroupKey, items: SubmitItem[], envelopeId: string): Promise<{ claimed: ClaimedDocument[]; bytes: Uint8Array } | null> {
  const held = items.map((i) => i.held).filter((d): d is ClaimedDocument => d !== undefined && d.estado === "PENDIENTE");
  if (held.length !== items.length) return null;
  let bytes: Uint8Array;
  try {
    held.sort(byTipoAndFolio);
    bytes = await envelopeBytes(deps, session, group, held);
  } catch {
    return null; // the general path fails the same way and records why
  }
  const stored = await storeHeldEnvelope(
    deps,
    group,
    held.map((d) => d.id),
    envelopeId,
    storedEnvelope(bytes, held),
  );
  return stored ? { claimed: held, bytes } : null;
}

/** The group committer's flush for one group key. Resolves with one outcome per item, in order. */
export async function uploadEnvelope(deps: Deps, key: string, items: SubmitItem[]): Promise<SubmitOutcome[]> {
  const group = parseGroupKey(key);
  const ids = items.map((i) => i.id);
  const session = await openSiiSession(deps, group.businessId, group.environment, carriedBusiness(group, items));
  const envelopeId = newId("envelope");
  const held = await claimHeld(deps, session, group, items, envelopeId);
  let claimed: ClaimedDocument[];
  let bytes: Uint8Array;
  if (held) ({ claimed, bytes } = held);
  else {
    claimed = await claim(deps, group, ids, envelopeId);
    if (claimed.length === 0) return currentStates(deps, ids);
    try {
      bytes = await envelopeBytes(deps, session, group, claimed);
    } catch (error) {
      await release(deps, envelopeId, claimed, "failed", `envelope not built: ${errorMessage(error)}`);
      throw error;
    }
    if (!(await storeForUpload(deps, envelopeId, storedEnvelope(bytes, claimed)))) return currentStates(deps, ids);
  }
  return sendStored(deps, session, group, envelopeId, claimed, bytes, ids);
}

/**
 * Uploads an envelope already stored (`uploading`) with its documents claimed, and applies the SII's answer (see
 * the module comment). `ids`: the documents asked about, whose outcomes come back in that order.
 */
export async function sendStored(deps: Deps, session: SiiSession, group: GroupKey, envelopeId: string, claimed: ClaimedDocument[], bytes: Uint8Array, ids: string[]): Promise<SubmitOutcome[]> {
  try {
    const result = await session.client.uploadEnvelope({ kind: group.kind, xml: bytes, rutEmisor: session.business.rut });
    const sent = await markSent(deps, envelopeId, claimed, result.trackId);
    // The usual case, every id claimed and changed here: the outcome is known without reading it back.
    if (sent.allApplied && claimed.length === ids.length) return ids.map((id) => ({ id, estado: "ENVIADO", applied: sent.applied }));
  } catch (error) {
    if (error instanceof SiiRefusedError) await markRefused(deps, envelopeId, claimed, error);
    else if (error instanceof SiiAuthError) {
      deps.log.error("sii.authentication_refused", { envelope_id: envelopeId, estado: error.status, documents: claimed.length });
      await release(deps, envelopeId, claimed, "failed", error.message, authSnapshot(error, deps.now()));
    }
    else if (error instanceof SiiTransientError && !mayHaveArrived(error)) await release(deps, envelopeId, claimed, "failed", error.message);
    else await release(deps, envelopeId, claimed, "unknown", errorMessage(error));
  }
  return currentStates(deps, ids);
}

/**
 * True when every document changed to ENVIADO here (none was changed by someone else first). The envelope's
 * update and the documents' change are one statement (`envelope`): one round trip and one commit, whatever the
 * envelope's size.
 */
async function markSent(deps: Deps, envelopeId: string, docs: ClaimedDocument[], trackId: string): Promise<{ allApplied: boolean; applied: Partial<DocumentRow> }> {
  const at = deps.now();
  // `sii: null`: what an earlier failed attempt left there (an authentication refusal) no longer holds.
  const set = { trackId, envelopeId, sii: null, nextCheckAt: nextCheckAt(deps, 0, at), checkAttempts: 0 };
  const applied = await changeDocumentStates(deps.db, {
    documents: docs,
    to: "ENVIADO",
    at,
    detalle: `recibido por el SII, track id ${trackId}`,
    set,
    envelope: { id: envelopeId, set: { status: "uploaded", trackId, uploadedAt: at, updatedAt: at } },
  });
  return { allApplied: applied.size === docs.length, applied: { ...set, estado: "ENVIADO", updatedAt: at } };
}

async function markRefused(deps: Deps, envelopeId: string, docs: ClaimedDocument[], error: SiiRefusedError): Promise<void> {
  const at = deps.now();
  const errores = [siiError(error.status, "upload", error.descripcion), ...error.detail.slice(0, 20).map((line) => ({ codigo: error.status, descripcion: line, ayuda: error.ayuda }))];
  const detalle = `envío rechazado por el SII (STATUS ${error.status}: ${error.descripcion}). ${error.ayuda}`;
  await changeDocumentStates(deps.db, {
    documents: docs,
    to: "RECHAZADO",
    at,
    detalle,
    set: { envelopeId, sii: simpleSnapshot(error.status, error.descripcion, errores, at), nextCheckAt: null },
    envelope: { id: envelopeId, set: { status: "refused", detail: [error.message, ...error.detail].join("\n").slice(0, 4000), updatedAt: at } },
  });
}

/** What `/status` shows of a PENDIENTE document whose upload the SII did not authenticate. */
function authSnapshot(error: SiiAuthError, at: Date): SiiStatusSnapshot {
  const errores = [siiError(error.status, "token", error.detail[0])];
  return simpleSnapshot(null, `el SII no autenticó el envío (ESTADO ${error.status}); se reintentará`, errores, at);
}

/**
 * Documents stay PENDIENTE; `failed` releases them for the next envelope, `unknown` keeps them until reconciled.
 * `sii`, when given, is what `/status` shows meanwhile.
 */
async function release(deps: Deps, envelopeId: string, docs: ClaimedDocument[], status: "failed" | "unknown", detail: string, sii?: SiiStatusSnapshot): Promise<void> {
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(envelopes).set({ status, detail: detail.slice(0, 4000), updatedAt: at }).where(eq(envelopes.id, envelopeId));
    for (const doc of docs) {
      await tx
        .update(documents)
        .set({ envelopeId: status === "failed" ? null : envelopeId, ...(sii ? { sii } : {}), checkAttempts: doc.checkAttempts + 1, nextCheckAt: nextCheckAt(deps, doc.checkAttempts + 1, at), updatedAt: at })
        .where(and(eq(documents.id, doc.id), eq(documents.estado, "PENDIENTE")));
    }
  });
  deps.log.warn("sii.upload_failed", { envelope_id: envelopeId, status, documents: docs.length, detail: detail.slice(0, 200) });
}
