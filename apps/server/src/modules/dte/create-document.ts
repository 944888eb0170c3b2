/**
 * Creating documents: take the folios, timbre and sign, store each document (PENDIENTE, exact signed bytes), its
 * first history row and its Idempotency-Key link — for any number of documents in ONE transaction. A folio
 * therefore never exists without its document: if anything fails, the folio increments roll back with it.
 *
 * Many documents in one transaction is what makes emission cheap under load (`emission-committer.ts` gathers the
 * requests that arrive together; `POST /dte/batch` passes its items): one folio statement per business/tipo, one
 * INSERT of all documents, one of their history rows and one commit, instead of all of that per document. When the
 * shared transaction fails (a range ran out part-way, two annulments raced, a deadlock between processes at a range
 * boundary…) every document is tried again in a transaction of its own, so one bad document costs no other
 * anything and each gets its own error.
 */
import { encodeLatin1, type SignedDte } from "@timbre/core/xml";
import { documentHeadColumns, documentHistory, documents, type DocumentHead, type DocumentRow } from "../../db/documents.js";
import { isUniqueViolation } from "../../db/pg-errors.js";
import type { Tx } from "../../db/tx.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError } from "../../http/errors.js";
import { linkIdempotentResource, type IdempotencyRecord } from "../../http/idempotency.js";
import { newId } from "../../ids.js";
import { wakeWorkers } from "../../jobs/start-workers.js";
import { errorMessage } from "../../log.js";
import { allocateFolios, foliosExhausted, type AllocatedRun } from "../numerations/allocate-folio.js";
import { chileDate, chileTimestamp } from "./chile-time.js";
import type { PreparedEmission } from "./prepare-emission.js";
import { resolutionOf } from "./prepare-emission.js";
import { signingIdentityOf } from "./signing-identity.js";
import { signAll } from "../../signing/document-signer.js";
import type { StoredComputation } from "./stored-document.js";

/** The Idempotency-Key record of the request, linked to the document in the same transaction (crash safety). */
export type { IdempotencyRecord } from "../../http/idempotency.js";

/** One document to create: who emits it, what was validated, and the keys it answers (request's, document's own). */
export interface DocumentToCreate {
  scope: BusinessScope;
  prepared: PreparedEmission;
  idempotency: IdempotencyRecord | readonly IdempotencyRecord[];
}

export type CreatedDocument = { ok: true; row: DocumentRow } | { ok: false; error: unknown };

export async function createDocument(deps: Deps, scope: BusinessScope, prepared: PreparedEmission, idempotency: IdempotencyRecord = null): Promise<DocumentRow> {
  const [created] = await createDocuments(deps, [{ scope, prepared, idempotency }]);
  if (!created?.ok) throw created?.error ?? new Error("no document created");
  return created.row;
}

/** Creates the documents, in one transaction when it can; one result per entry, in order. */
export async function createDocuments(deps: Deps, entries: DocumentToCreate[]): Promise<CreatedDocument[]> {
  if (entries.length === 0) return [];
  try {
    const { rows, becameLow } = await deps.db.transaction((tx) => insertSigned(tx, deps, entries));
    // A range just went low: the checks worker records `numeration.low` now rather than at its next hourly round.
    if (becameLow) wakeWorkers(deps, "checks");
    return rows.map((row) => ({ ok: true, row }));
  } catch (error) {
    if (entries.length === 1) return [{ ok: false, error: explain(entries[0] as DocumentToCreate, error) }];
    // Expected causes (a range ran out, an annulment race) are answered per document below; anything else is worth
    // seeing, since every round would then go document by document.
    if (!(error instanceof ApiError) && !isUniqueViolation(error)) deps.log.warn("dte.round_split", { documents: entries.length, message: errorMessage(error).slice(0, 300) });
  }
  const results: CreatedDocument[] = [];
  for (const entry of entries) results.push(...(await createDocuments(deps, [entry])));
  return results;
}

/** Two annulments of one document racing: the partial unique index lets only one through. */
function explain(entry: DocumentToCreate, error: unknown): unknown {
  if (entry.prepared.annulsDocumentId && isUniqueViolation(error)) {
    return new ApiError("REFERENCE_INVALID", "the document was already annulled", { reason: "already_annulled" });
  }
  return error;
}

/** Documents that take folios from the same ranges: business, environment, tipo — and tax date (see `fecha`). */
const groupKeyOf = (e: DocumentToCreate) => `${e.scope.businessId}\u0000${e.scope.environment}\u0000${e.prepared.input.tipo}\u0000${e.prepared.input.fecha}`;

/**
 * Folios for every entry, in entry order within each business/environment/tipo. Groups are taken in a fixed
 * order (sorted keys), so two processes lock the ranges they share in the same order.
 */
async function allocateAll(tx: Tx, deps: Deps, entries: DocumentToCreate[], today: string): Promise<Array<{ numerationId: string; folio: number; run: AllocatedRun }>> {
  const groups = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const key = groupKeyOf(e);
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  });
  const folios = new Array<{ numerationId: string; folio: number; run: AllocatedRun }>(entries.length);
  for (const key of [...groups.keys()].sort()) {
    const indexes = groups.get(key) as number[];
    const { scope, prepared } = entries[indexes[0] as number] as DocumentToCreate;
    const input = { businessId: scope.businessId, environment: scope.environment, tipo: prepared.input.tipo, today, fecha: prepared.input.fecha };
    const runs = await allocateFolios(tx, deps, { ...input, count: indexes.length });
    let next = 0;
    for (const run of runs) {
      for (let k = 0; k < run.count; k++) folios[indexes[next++] as number] = { numerationId: run.numerationId, folio: run.first + k, run };
    }
    if (next < indexes.length) throw foliosExhausted(input);
  }
  return folios;
}

async function insertSigned(tx: Tx, deps: Deps, entries: DocumentToCreate[]): Promise<{ rows: DocumentRow[]; becameLow: boolean }> {
  const now = deps.now();
  const folios = await allocateAll(tx, deps, entries, chileDate(now));
  const timestamp = chileTimestamp(now);
  const planned = entries.map((entry, i) => {
    const allocated = folios[i] as (typeof folios)[number];
    return { entry, allocated, identity: signingIdentityOf(deps, entry.prepared.business), input: { ...entry.prepared.input, folio: allocated.folio } };
  });
  // Signed off this thread (`deps.signer`) while the ranges' row locks are held: a round's documents on several cores.
  const signedAll = await signAll(
    deps.signer,
    planned.map((p) => ({ input: p.input, totals: p.entry.prepared.totals, caf: p.allocated.run.caf, identity: p.identity.identity, timestamp })),
  );
  const values = planned.map(({ entry: { scope, prepared }, allocated: { numerationId, folio }, identity, input }, i) => {
    const signed = signedAll[i] as SignedDte;
    const computed: StoredComputation = { input, totals: prepared.totals, resolution: resolutionOf(prepared.business, scope.environment, identity) };
    return {
      id: newId("document"),
      businessId: scope.businessId,
      environment: scope.environment,
      numerationId,
      tipo: input.tipo,
      folio,
      fecha: input.fecha,
      fechaEmision: now,
      receptorRut: input.receiver.rut,
      receptorRazonSocial: input.receiver.razonSocial || null,
      montoNeto: prepared.totals.montoNeto,
      montoExento: prepared.totals.montoExento,
      montoIva: prepared.totals.montoIva,
      montoTotal: prepared.totals.montoTotal,
      estado: "PENDIENTE" as const,
      request: prepared.request as unknown as Record<string, unknown>,
      computed: computed as unknown as Record<string, unknown>,
      xml: encodeLatin1(signed.xml),
      ted: signed.ted,
      // The emission request uploads it now; the dispatcher looks only after the request's budget.
      nextCheckAt: new Date(now.getTime() + deps.config.emitBudgetMs + 5_000),
      annulsDocumentId: prepared.annulsDocumentId,
      createdAt: now,
      updatedAt: now,
    };
  });
  // The payload (XML, TED, request, computed) is ours already: only what PostgreSQL filled in comes back.
  const inserted = await tx.insert(documents).values(values).returning(documentHeadColumns);
  if (inserted.length !== values.length) throw new Error("document insert returned fewer rows than documents");
  // Independent of each other once the documents exist: sent together (pipelined on the connection).
  await Promise.all([
    tx.insert(documentHistory).values(values.map((v) => ({ id: newId("history"), documentId: v.id, estado: "PENDIENTE" as const, at: now, detalle: "firmado, pendiente de envío al SII" }))),
    ...entries.flatMap((e, i) => [e.idempotency].flat().map((record) => linkIdempotentResource(tx, record, (values[i] as (typeof values)[number]).id))),
  ]);
  const byId = new Map(inserted.map((row) => [row.id, row]));
  return { rows: values.map((v): DocumentRow => ({ ...v, ...(byId.get(v.id) as DocumentHead) })), becameLow: folios.some((f) => f.run.becameLow) };
}
