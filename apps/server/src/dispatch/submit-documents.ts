/**
 * `submitDocuments(deps, ids)`: uploads PENDIENTE documents through the group committer — documents of one
 * business/environment/envelope kind that are ready at the same moment travel in ONE envelope. Documents whose
 * last upload has an unknown outcome are reconciled with the SII first (never uploaded twice). Used by emission
 * (right after commit) and by the dispatcher job (retries).
 */
import { inArray } from "drizzle-orm";
import type { BusinessRow } from "../db/businesses.js";
import { documents, type DocumentRow } from "../db/documents.js";
import type { Deps } from "../deps.js";
import { GroupCommitter } from "./group-commit.js";
import { reconcileDocument } from "./reconcile-document.js";
import { envelopeKindOf } from "./sii-session.js";
import type { RoundEnvelope } from "./round-envelopes.js";
import { groupKeyOf, maxEnvelopeDocuments, parseGroupKey, sendStored, uploadEnvelope, type ClaimedDocument, type SubmitItem, type SubmitOutcome } from "./upload-envelope.js";

export type { SubmitOutcome } from "./upload-envelope.js";

const committers = new WeakMap<Deps, GroupCommitter<SubmitItem, SubmitOutcome>>();
/** Submissions in progress in this process, by document id (a second submit joins the first). */
const inFlight = new WeakMap<Deps, Map<string, Promise<SubmitOutcome>>>();

function inFlightFor(deps: Deps): Map<string, Promise<SubmitOutcome>> {
  let map = inFlight.get(deps);
  if (!map) {
    map = new Map();
    inFlight.set(deps, map);
  }
  return map;
}

/** Resolves once every submission of this process started so far has settled (shutdown, tests). */
export async function waitForSubmissions(deps: Deps): Promise<void> {
  await Promise.allSettled([...inFlightFor(deps).values()]);
}

function committerFor(deps: Deps): GroupCommitter<SubmitItem, SubmitOutcome> {
  let committer = committers.get(deps);
  if (!committer) {
    committer = new GroupCommitter<SubmitItem, SubmitOutcome>({
      flush: (key, items) => uploadEnvelope(deps, key, items),
      maxBatch: (key) => maxEnvelopeDocuments(parseGroupKey(key).kind),
    });
    committers.set(deps, committer);
  }
  return committer;
}

/**
 * What submitting a document needs to know about it; with its folio, attempts and signed XML too (a row just
 * created) its envelope is built from it and claimed and stored in one statement (`store-held-envelope.ts`).
 */
export type Submittable = Pick<DocumentRow, "id" | "estado" | "envelopeId" | "businessId" | "environment" | "tipo"> & Partial<Pick<DocumentRow, "folio" | "checkAttempts" | "xml">>;

function heldOf(row: Submittable): ClaimedDocument | undefined {
  const { folio, checkAttempts, xml } = row;
  if (folio === undefined || checkAttempts === undefined || xml === undefined || row.envelopeId !== null) return undefined;
  return { id: row.id, businessId: row.businessId, environment: row.environment, tipo: row.tipo, folio, estado: row.estado, checkAttempts, xml };
}

export interface SubmitOptions {
  /** The business row the caller read for these documents (it signed them with its certificate). */
  business?: BusinessRow;
}

/**
 * Submits the documents; resolves with each one's state afterwards (PENDIENTE when it could not be uploaded).
 * `known` are rows the caller holds in their current state (e.g. just inserted), which are not read again.
 */
export async function submitDocuments(deps: Deps, documentIds: string[], known: Submittable[] = [], options: SubmitOptions = {}): Promise<SubmitOutcome[]> {
  if (documentIds.length === 0) return [];
  const given = new Map(known.map((r) => [r.id, r]));
  const rows = documentIds.every((id) => given.has(id))
    ? [...given.values()]
    : await deps.db
        .select({ id: documents.id, estado: documents.estado, envelopeId: documents.envelopeId, businessId: documents.businessId, environment: documents.environment, tipo: documents.tipo })
        .from(documents)
        .where(inArray(documents.id, documentIds));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const committer = committerFor(deps);
  const running = inFlightFor(deps);
  const submitOne = async (id: string): Promise<SubmitOutcome> => {
    const row = byId.get(id);
    if (!row) throw new Error(`unknown document ${id}`);
    if (row.estado !== "PENDIENTE") return { id, estado: row.estado };
    if (row.envelopeId !== null) {
      const outcome = await reconcileDocument(deps, id);
      if (outcome === "received") return { id, estado: "ENVIADO" };
      if (outcome !== "not_received" && outcome !== "not_needed") return { id, estado: "PENDIENTE" };
    }
    const key = groupKeyOf({ businessId: row.businessId, environment: row.environment, kind: envelopeKindOf(row.tipo) });
    const held = heldOf(row);
    // Whether the upload may use it (same business and version on every item) is `carriedBusiness`'s to judge.
    return committer.submit(key, { id, ...(held ? { held } : {}), ...(options.business ? { business: options.business } : {}) });
  };
  return Promise.all(
    documentIds.map((id) => {
      const joined = running.get(id);
      if (joined) return joined;
      const promise = submitOne(id).finally(() => running.delete(id));
      running.set(id, promise);
      return promise;
    }),
  );
}

/**
 * Uploads the envelopes an emission round stored together with its documents (`round-envelopes.ts`) and applies
 * the answers; each document's outcome, which a submission of it in this process meanwhile joins too.
 */
export function uploadRoundEnvelopes(deps: Deps, stored: readonly RoundEnvelope[]): Map<string, Promise<SubmitOutcome>> {
  const running = inFlightFor(deps);
  const outcomes = new Map<string, Promise<SubmitOutcome>>();
  for (const envelope of stored) {
    const ids = envelope.documents.map((d) => d.id);
    const all = sendStored(deps, envelope.session, envelope.group, envelope.id, envelope.documents, envelope.bytes, ids);
    ids.forEach((id, k) => {
      const outcome: Promise<SubmitOutcome> = all.then((list): SubmitOutcome => list[k] ?? { id, estado: "PENDIENTE" }).finally(() => {
        if (running.get(id) === outcome) running.delete(id);
      });
      // Whoever awaits it handles a failure (the emission logs it); none is left unhandled if nobody does.
      outcome.catch(() => {});
      running.set(id, outcome);
      outcomes.set(id, outcome);
    });
  }
  return outcomes;
}
