/**
 * Creating documents: take the folios, timbre and sign, store each document (PENDIENTE, exact signed bytes), its
 * first history row and its Idempotency-Key link — for any number of documents in ONE transaction. A folio
 * therefore never exists without its document: if anything fails, the folio increments roll back with it.
 * Documents whose folios the process can forecast are signed before the transaction takes the ranges' row locks
 * (`numerations/folio-forecast.ts`) and kept only when the folio they carry is the one they are then given.
 *
 * Many documents in one transaction is what makes emission cheap under load (`emission-committer.ts` gathers the
 * requests that arrive together; `POST /dte/batch` passes its items): one folio statement per business/tipo, one
 * INSERT of all documents, one of their history rows and one commit, instead of all of that per document. A round
 * whose every document was signed ahead is cheaper still: ONE autocommitted statement takes the forecast folios
 * where they still hold and stores those documents (`store-forecast-round.ts`); the rest go the general way. The
 * rounds of a process store in the order they forecast (`takeTurn`). When the
 * shared transaction fails (a range ran out part-way, two annulments raced, a deadlock between processes at a range
 * boundary…) every document is tried again in a transaction of its own, so one bad document costs no other
 * anything and each gets its own error.
 */
import type { Caf } from "@timbre/core/caf";
import { encodeLatin1, type AnyDocumentInput, type SignedDte, type SignedDteOptions } from "@timbre/core/xml";
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
import { signAll, type SignResult } from "../../signing/document-signer.js";
import { FolioForecast, type ForecastFolio } from "../numerations/folio-forecast.js";
import { becomesLow } from "../numerations/low-folios.js";
import { storeForecastRound, type ForecastDocument, type ForecastRun, type StoredRun } from "./store-forecast-round.js";
import { buildRoundEnvelopes } from "../../dispatch/round-envelopes.js";
import { uploadRoundEnvelopes, type SubmitOutcome } from "../../dispatch/submit-documents.js";
import type { StoredComputation } from "./stored-document.js";
import { currencyColumnsOf } from "./tipo-inputs.js";

/** The Idempotency-Key record of the request, linked to the document in the same transaction (crash safety). */
export type { IdempotencyRecord } from "../../http/idempotency.js";

/** One document to create: who emits it, what was validated, and the keys it answers (request's, document's own). */
export interface DocumentToCreate {
  scope: BusinessScope;
  prepared: PreparedEmission;
  idempotency: IdempotencyRecord | readonly IdempotencyRecord[];
  /** Its signing, started as it joined the next round with a forecast folio (`signOnArrival`). */
  early?: EarlySignature;
}

/** A document being signed before its round starts: with which forecast folio, and the result. */
export interface EarlySignature {
  folio: ForecastFolio;
  result: Promise<SignResult | undefined>;
}

/** `upload`: its envelope's upload, when the round stored it in one (`CreateOptions.upload`). */
export type CreatedDocument = { ok: true; row: DocumentRow; upload?: Promise<SubmitOutcome> } | { ok: false; error: unknown };

export interface CreateOptions {
  /**
   * The caller uploads the documents right away (an emission): a round stored in one statement stores their
   * envelopes with them and starts uploading them (`dispatch/round-envelopes.ts`).
   */
  upload?: boolean;
}

export async function createDocument(deps: Deps, scope: BusinessScope, prepared: PreparedEmission, idempotency: IdempotencyRecord = null): Promise<DocumentRow> {
  const [created] = await createDocuments(deps, [{ scope, prepared, idempotency }]);
  if (!created?.ok) throw created?.error ?? new Error("no document created");
  return created.row;
}

/** Creates the documents, in one transaction when it can; one result per entry, in order. */
export async function createDocuments(deps: Deps, entries: DocumentToCreate[], options: CreateOptions = {}): Promise<CreatedDocument[]> {
  if (entries.length === 0) return [];
  const now = deps.now();
  const ahead = signAhead(deps, entries, now);
  const fast = await storeForecast(deps, entries, now, ahead, options).finally(ahead.turn.end);
  if (fast) {
    if (fast.becameLow) wakeWorkers(deps, "checks");
    const leftover = entries.flatMap((_, i) => (fast.rows[i] ? [] : [i]));
    const rest = leftover.length === 0 ? [] : await createDocuments(deps, leftover.map((i) => entries[i] as DocumentToCreate), options);
    const results = fast.rows.map((row): CreatedDocument | undefined => {
      const upload = row && fast.uploads.get(row.id);
      return row ? { ok: true, row, ...(upload ? { upload } : {}) } : undefined;
    });
    leftover.forEach((i, j) => (results[i] = rest[j]));
    return results as CreatedDocument[];
  }
  try {
    const { rows, becameLow } = await deps.db.transaction((tx) => insertSigned(tx, deps, entries, now, ahead));
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

/** The entries' indexes by `groupKeyOf`, in entry order. */
function groupsOf(entries: DocumentToCreate[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const key = groupKeyOf(e);
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  });
  return groups;
}

/** One forecast per app (its `Deps`): what this process's rounds were given. */
const processForecasts = new WeakMap<Deps, FolioForecast>();
function forecastOf(deps: Deps): FolioForecast {
  let forecast = processForecasts.get(deps);
  if (!forecast) processForecasts.set(deps, (forecast = new FolioForecast()));
  return forecast;
}

/** A round's documents signed before its folios are allocated, with the folios they were signed for. */
interface SignedAhead {
  /** The entries' indexes by group (`groupsOf`). */
  groups: Map<string, number[]>;
  /** By group: what the forecast said (null: nothing, those documents were not signed ahead). */
  forecasts: Map<string, ForecastFolio[] | null>;
  /** By entry: the folio it was signed with, if any. */
  folios: Array<ForecastFolio | undefined>;
  /** By entry: the result of signing it ahead (undefined when it was not). */
  results: Promise<Array<SignResult | undefined>>;
  /** This round's turn to store with its forecast folios (`storeForecast`): the rounds of a process go in the order they forecast. */
  turn: StoreTurn;
}

/**
 * Forecast rounds store in the order they took their forecasts: a round's statement starts once the previous
 * round's has ended (its folios taken or not), else it would find the range's counter short of its forecast.
 */
interface StoreTurn {
  /** Resolves when the previous round's turn ends. */
  previous: Promise<void>;
  /** Ends this round's turn (idempotent); every round ends it, whichever way it stores. */
  end: () => void;
}

const lastTurns = new WeakMap<Deps, Promise<void>>();
function takeTurn(deps: Deps): StoreTurn {
  const previous = lastTurns.get(deps) ?? Promise.resolve();
  let end = () => {};
  const mine = new Promise<void>((resolve) => (end = resolve));
  lastTurns.set(deps, mine);
  return { previous, end };
}

/** The job that timbres and signs an entry as `folio` of the range whose CAF is `caf`. */
function signJob(deps: Deps, entry: DocumentToCreate, folio: number, caf: Caf, timestamp: string): SignedDteOptions {
  const identity = signingIdentityOf(deps, entry.prepared.business).identity;
  return { input: { ...entry.prepared.input, folio }, totals: entry.prepared.totals, caf, identity, timestamp };
}

/**
 * Starts signing, on the signer's threads, the entries whose folios the process can forecast (`folio-forecast.ts`):
 * that work then overlaps with waiting for the ranges' row locks instead of being done while holding them.
 */
function signAhead(deps: Deps, entries: DocumentToCreate[], now: Date): SignedAhead {
  const forecast = forecastOf(deps);
  const timestamp = chileTimestamp(now);
  const ahead: SignedAhead = { groups: groupsOf(entries), forecasts: new Map(), folios: new Array(entries.length), results: Promise.resolve([]), turn: takeTurn(deps) };
  const jobs: SignedDteOptions[] = [];
  const jobEntries: number[] = [];
  const early = new Array<Promise<SignResult | undefined> | undefined>(entries.length);
  try {
    for (const [key, indexes] of ahead.groups) {
      const started = indexes.map((i) => (entries[i] as DocumentToCreate).early);
      const startedFolios = started.flatMap((e) => (e ? [e.folio] : []));
      if (startedFolios.length === indexes.length && forecast.isLastRun(key, startedFolios)) {
        // Every document of the group is being signed already, with the run the forecast would give the round now.
        ahead.forecasts.set(key, startedFolios);
        indexes.forEach((i, k) => {
          ahead.folios[i] = startedFolios[k];
          early[i] = (started[k] as EarlySignature).result;
        });
        continue;
      }
      // Else (a forecast reset since, a document not signed early): those signatures are dropped, the group takes
      // its folios now, as the forecast stands.
      const folios = forecast.take(key, indexes.length);
      ahead.forecasts.set(key, folios);
      folios?.forEach((f, k) => {
        const i = indexes[k] as number;
        jobs.push(signJob(deps, entries[i] as DocumentToCreate, f.folio, f.caf, timestamp));
        ahead.folios[i] = f;
        jobEntries.push(i);
      });
    }
  } catch {
    // A certificate that expired since the request was validated, say: signing under the lock reports it per document.
    return { ...ahead, folios: new Array(entries.length) };
  }
  if (jobs.length === 0 && !early.some(Boolean)) return ahead;
  const signedNow = jobs.length === 0 ? Promise.resolve([]) : deps.signer.sign(jobs);
  ahead.results = Promise.all([signedNow, Promise.all(early)]).then(
    ([results, signedEarly]) => {
      const byEntry = signedEarly;
      results.forEach((r, j) => (byEntry[jobEntries[j] as number] = r));
      return byEntry;
    },
    () => [], // a signer failure: every document is signed under the lock, which reports it
  );
  return ahead;
}

/**
 * Starts signing an emission as it joins the next round (`emission-committer.ts`, `GroupCommitOptions.prepare`),
 * with the folio the process forecasts for it: the signing then overlaps with the round's wait for company and for
 * a free slot instead of starting when the round does. The round uses the signature when its group's forecast still
 * stands (`signAhead`); a document signed early keeps the time it was signed at as its signature's timestamp.
 * Only while the group's forecast is steady (`FolioForecast.steady`): under contention with another process each
 * early signature would be wasted.
 */
export function signOnArrival(deps: Deps, entry: DocumentToCreate): void {
  const forecast = forecastOf(deps);
  const key = groupKeyOf(entry);
  if (!forecast.steady(key)) return; // the round signs it when it starts
  const [folio] = forecast.take(key, 1) ?? [];
  if (!folio) return;
  const timestamp = chileTimestamp(deps.now());
  let signing: Promise<SignResult[]>;
  try {
    signing = deps.signer.sign([signJob(deps, entry, folio.folio, folio.caf, timestamp)]);
  } catch {
    // A certificate that expired since the request was validated, say. The folio was taken for nothing: the forecast
    // is dropped and the round re-plans the group (`signAhead`), whose signing under the lock reports the error.
    forecast.forget(key);
    return;
  }
  entry.early = { folio, result: signing.then(([r]) => r, () => undefined) };
}

/**
 * Folios for every entry, in entry order within each business/environment/tipo. Groups are taken in a fixed
 * order (sorted keys), so two processes lock the ranges they share in the same order. The forecast learns what
 * each group got.
 */
async function allocateAll(tx: Tx, deps: Deps, entries: DocumentToCreate[], today: string, ahead: SignedAhead): Promise<Array<{ numerationId: string; folio: number; run: AllocatedRun }>> {
  const { groups } = ahead;
  const folios = new Array<{ numerationId: string; folio: number; run: AllocatedRun }>(entries.length);
  for (const key of [...groups.keys()].sort()) {
    const indexes = groups.get(key) as number[];
    const { scope, prepared } = entries[indexes[0] as number] as DocumentToCreate;
    const input = { businessId: scope.businessId, environment: scope.environment, tipo: prepared.input.tipo, today, fecha: prepared.input.fecha };
    const runs = await allocateFolios(tx, deps, { ...input, count: indexes.length });
    forecastOf(deps).learn(key, runs, ahead.forecasts.get(key) ?? null);
    let next = 0;
    for (const run of runs) {
      for (let k = 0; k < run.count; k++) folios[indexes[next++] as number] = { numerationId: run.numerationId, folio: run.first + k, run };
    }
    if (next < indexes.length) throw foliosExhausted(input);
  }
  return folios;
}

/**
 * Every entry signed as the folio it was given: the signature made ahead when it was made for that folio of that
 * range (then its bytes are the ones signing now would give), else made now.
 */
async function signAllocated(deps: Deps, entries: DocumentToCreate[], folios: Array<{ numerationId: string; folio: number; run: AllocatedRun }>, timestamp: string, ahead: SignedAhead): Promise<SignedDte[]> {
  const early = await ahead.results;
  const signed = new Array<SignedDte>(entries.length);
  const missing: number[] = [];
  entries.forEach((_, i) => {
    const forecast = ahead.folios[i];
    const given = folios[i] as (typeof folios)[number];
    const result = early[i];
    if (forecast && result?.ok && forecast.numerationId === given.numerationId && forecast.folio === given.folio) signed[i] = result.signed;
    else missing.push(i);
  });
  if (missing.length === 0) return signed;
  const now = await signAll(
    deps.signer,
    missing.map((i) => {
      const given = folios[i] as (typeof folios)[number];
      return signJob(deps, entries[i] as DocumentToCreate, given.folio, given.run.caf, timestamp);
    }),
  );
  missing.forEach((i, j) => (signed[i] = now[j] as SignedDte));
  return signed;
}

/** The history line of a document just created. */
const CREATED_DETAIL = "firmado, pendiente de envío al SII";

/** What a created document's row holds besides what `documentValues` sets (the columns' defaults). */
const CREATED_DEFAULTS = { trackId: null, envelopeId: null, sii: null, checkAttempts: 0, acceptance: null, acceptanceCheckAt: null } satisfies Omit<DocumentRow, keyof ReturnType<typeof documentValues>>;

/** The `documents` row of an entry signed as `folio` of range `numerationId`. */
function documentValues(
  deps: Deps,
  { scope, prepared }: DocumentToCreate,
  { numerationId, folio, identity, input, signed, now }: { numerationId: string; folio: number; identity: ReturnType<typeof signingIdentityOf>; input: SignedDteOptions["input"]; signed: SignedDte; now: Date },
) {
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
    ...currencyColumnsOf(input as AnyDocumentInput),
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
}

/**
 * When every entry was signed ahead: stores the round in one statement (`store-forecast-round.ts`). Returns the rows
 * of the entries whose group's forecast held (the others undefined: their forecast is forgotten, and they are created
 * the general way), or null when the round is not for this path.
 */
async function storeForecast(
  deps: Deps,
  entries: DocumentToCreate[],
  now: Date,
  ahead: SignedAhead,
  options: CreateOptions,
): Promise<{ rows: Array<DocumentRow | undefined>; becameLow: boolean; uploads: Map<string, Promise<SubmitOutcome>> } | null> {
  if (!entries.every((_, i) => ahead.folios[i] !== undefined)) return null;
  const early = await ahead.results;
  if (!entries.every((_, i) => early[i]?.ok)) return null;
  const keys = [...ahead.groups.keys()].sort();
  const today = chileDate(now);
  const runs: ForecastRun[] = keys.map((key) => {
    const folios = ahead.forecasts.get(key) as ForecastFolio[];
    const first = folios[0] as ForecastFolio;
    const entry = entries[(ahead.groups.get(key) as number[])[0] as number] as DocumentToCreate;
    return { numerationId: first.numerationId, first: first.folio, count: folios.length, today, fecha: entry.prepared.input.fecha };
  });
  if (new Set(runs.map((r) => r.numerationId)).size !== runs.length) return null;
  const groupOf = new Array<number>(entries.length);
  keys.forEach((key, g) => (ahead.groups.get(key) as number[]).forEach((i) => (groupOf[i] = g)));
  let planned: ForecastDocument[];
  try {
    planned = entries.map((entry, i) => {
      const forecast = ahead.folios[i] as ForecastFolio;
      const signed = (early[i] as Extract<SignResult, { ok: true }>).signed;
      const identity = signingIdentityOf(deps, entry.prepared.business);
      const input = { ...entry.prepared.input, folio: forecast.folio };
      const row = documentValues(deps, entry, { numerationId: forecast.numerationId, folio: forecast.folio, identity, input, signed, now });
      return { group: groupOf[i] as number, envelopeId: null, historyId: newId("history"), links: [entry.idempotency].flat(), row };
    });
  } catch {
    return null; // a document that cannot be stored (its XML not ISO-8859-1, say): the general path answers each one
  }
  const envelopes = options.upload
    ? await buildRoundEnvelopes(deps, planned.map((p, i) => ({
      row: p.row,
      run: p.group,
      business: (entries[i] as DocumentToCreate).prepared.business,
      envelopeC14n: (early[i] as Extract<SignResult, { ok: true }>).signed.envelopeC14n,
    })))
    : [];
  const envelopeOf = new Map(envelopes.flatMap((e) => e.documents.map((d) => [d.id, e.id] as const)));
  for (const p of planned) p.envelopeId = envelopeOf.get(p.row.id) ?? null;
  const forecast = forecastOf(deps);
  let stored: { runs: StoredRun[]; envelopes: Set<string> };
  await ahead.turn.previous;
  try {
    stored = await storeForecastRound(deps.db, {
      runs,
      documents: planned,
      envelopes: envelopes.map((e) => ({ id: e.id, businessId: e.group.businessId, environment: e.group.environment, kind: e.group.kind, stored: e.stored, runs: e.runs })),
      at: now,
      detalle: CREATED_DETAIL,
    });
  } catch (error) {
    // A unique violation (two annulments raced), say: the general path answers each document.
    for (const key of keys) forecast.forget(key);
    if (!isUniqueViolation(error)) deps.log.warn("dte.forecast_round_failed", { documents: entries.length, message: errorMessage(error).slice(0, 300) });
    return null;
  }
  const held = new Set(stored.runs.map((s) => s.group));
  keys.forEach((key, g) => (held.has(g) ? forecast.held(key, ahead.forecasts.get(key) ?? []) : forecast.forget(key)));
  const becameLow = stored.runs.some(({ group, desde, hasta }) => {
    const run = runs[group] as ForecastRun;
    return becomesLow({ desde, hasta }, run.first, run.count);
  });
  const uploads = uploadRoundEnvelopes(deps, envelopes.filter((e) => stored.envelopes.has(e.id)));
  const rows = planned.map((p): DocumentRow | undefined => {
    if (!held.has(p.group)) return undefined;
    const envelopeId = p.envelopeId !== null && stored.envelopes.has(p.envelopeId) ? p.envelopeId : null;
    return { ...p.row, ...CREATED_DEFAULTS, envelopeId };
  });
  return { rows, becameLow, uploads };
}

async function insertSigned(tx: Tx, deps: Deps, entries: DocumentToCreate[], now: Date, ahead: SignedAhead): Promise<{ rows: DocumentRow[]; becameLow: boolean }> {
  const folios = await allocateAll(tx, deps, entries, chileDate(now), ahead);
  const timestamp = chileTimestamp(now);
  const planned = entries.map((entry, i) => {
    const allocated = folios[i] as (typeof folios)[number];
    return { entry, allocated, identity: signingIdentityOf(deps, entry.prepared.business), input: { ...entry.prepared.input, folio: allocated.folio } };
  });
  // Signed off this thread (`deps.signer`): ahead of the ranges' row locks when the folios were forecast right,
  // else now, while they are held.
  const signedAll = await signAllocated(deps, entries, folios, timestamp, ahead);
  const values = planned.map(({ entry, allocated: { numerationId, folio }, identity, input }, i) =>
    documentValues(deps, entry, { numerationId, folio, identity, input, signed: signedAll[i] as SignedDte, now }),
  );
  // The payload (XML, TED, request, computed) is ours already: only what PostgreSQL filled in comes back.
  const inserted = await tx.insert(documents).values(values).returning(documentHeadColumns);
  if (inserted.length !== values.length) throw new Error("document insert returned fewer rows than documents");
  // Independent of each other once the documents exist: sent together (pipelined on the connection).
  await Promise.all([
    tx.insert(documentHistory).values(values.map((v) => ({ id: newId("history"), documentId: v.id, estado: "PENDIENTE" as const, at: now, detalle: CREATED_DETAIL }))),
    ...entries.flatMap((e, i) => [e.idempotency].flat().map((record) => linkIdempotentResource(tx, record, (values[i] as (typeof values)[number]).id))),
  ]);
  const byId = new Map(inserted.map((row) => [row.id, row]));
  return { rows: values.map((v): DocumentRow => ({ ...v, ...(byId.get(v.id) as DocumentHead) })), becameLow: folios.some((f) => f.run.becameLow) };
}
