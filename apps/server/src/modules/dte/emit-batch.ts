/**
 * `POST /v1/dte/batch`: every item is validated on its own; the valid ones are created up to
 * `MAX_DOCUMENTS_PER_ROUND` per transaction (`createDocuments`: one failure costs no other document anything, each
 * gets its own folio and error); all of them are then submitted together, so they travel in as few envelopes as
 * possible (one per envelope kind when nothing else is in flight).
 */
import { inArray } from "drizzle-orm";
import { documents, type DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { batchResource, type ClaimedIdempotencyKey } from "../../http/idempotency.js";
import { batchItemError, type BatchItemError } from "./batch-item-error.js";
import { createDocuments, type CreatedDocument, type DocumentToCreate } from "./create-document.js";
import { MAX_DOCUMENTS_PER_ROUND } from "./emission-committer.js";
import { loadScopeBusiness, prepareEmission } from "./prepare-emission.js";
import { presentDocument, type DteView } from "./present-document.js";
import { sendWithinBudget } from "./send-within-budget.js";

export interface BatchItemResult {
  index: number;
  success: boolean;
  data?: DteView;
  error?: BatchItemError;
}

/**
 * With an Idempotency-Key each created document is linked to the key as `index=id` in the transaction that creates
 * it; when the first request died part-way, the retry (`idempotency.resume`) reuses those documents and emits only
 * the items that have none, so no item ever gets a second folio.
 */
export async function emitBatch(
  deps: Deps,
  scope: BusinessScope,
  bodies: unknown[],
  idempotency: ClaimedIdempotencyKey | null = null,
): Promise<{ results: BatchItemResult[] }> {
  const created: Array<{ index: number; row: DocumentRow }> = [];
  const results: BatchItemResult[] = [];
  const fail = (index: number, error: unknown) => results.push({ index, success: false, error: batchItemError(deps, index, error) });
  const resumed = await resumedDocuments(deps, scope, batchResource(idempotency?.resume));
  // Read once for every item (and the upload); when it fails, each item reads it and reports the error itself.
  const business = await loadScopeBusiness(deps, scope).catch(() => undefined);
  const toCreate: Array<{ index: number; entry: DocumentToCreate }> = [];
  for (const [index, body] of bodies.entries()) {
    const existing = resumed.get(index);
    if (existing) {
      created.push({ index, row: existing });
      continue;
    }
    try {
      const prepared = await prepareEmission(deps, scope, body, { business });
      const link = idempotency ? { scope: idempotency.scope, key: idempotency.key, batchIndex: index } : null;
      toCreate.push({ index, entry: { scope, prepared, idempotency: link } });
    } catch (error) {
      fail(index, error);
    }
  }
  for (let start = 0; start < toCreate.length; start += MAX_DOCUMENTS_PER_ROUND) {
    const chunk = toCreate.slice(start, start + MAX_DOCUMENTS_PER_ROUND);
    const outcomes = await createDocuments(
      deps,
      chunk.map((c) => c.entry),
    );
    chunk.forEach(({ index }, i) => {
      const outcome = outcomes[i] as CreatedDocument;
      if (outcome.ok) created.push({ index, row: outcome.row });
      else fail(index, outcome.error);
    });
  }
  // Resumed items are rows read just now, like the created ones: none is read again if its upload answers here.
  const known = await sendWithinBudget(deps, created.map((c) => c.row), business);
  const unknown = created.map((c) => c.row.id).filter((id) => !known.has(id));
  const rows = unknown.length === 0 ? [] : await deps.db.select().from(documents).where(inArray(documents.id, unknown));
  const byId = new Map([...known, ...rows.map((r) => [r.id, r] as const)]);
  for (const { index, row } of created) results.push({ index, success: true, data: presentDocument(byId.get(row.id) ?? row) });
  return { results: results.sort((a, b) => a.index - b.index) };
}

/** The documents of a resumed batch, by item index (only this business's and environment's). */
async function resumedDocuments(deps: Deps, scope: BusinessScope, byIndex: Map<number, string>): Promise<Map<number, DocumentRow>> {
  if (byIndex.size === 0) return new Map();
  // By primary key only, the scope checked here: with the business in the WHERE clause a plan may drive the read
  // from a business index and filter all its documents (`db/locked-documents.ts`).
  const rows = await deps.db.select().from(documents).where(inArray(documents.id, [...byIndex.values()]));
  const byId = new Map(rows.filter((r) => r.businessId === scope.businessId && r.environment === scope.environment).map((r) => [r.id, r]));
  const out = new Map<number, DocumentRow>();
  for (const [index, id] of byIndex) {
    const row = byId.get(id);
    if (row) out.set(index, row);
  }
  return out;
}
