/**
 * `POST /v1/dte/batch`: every item is validated on its own; the valid ones are created up to
 * `MAX_DOCUMENTS_PER_ROUND` per transaction (`createDocuments`: one failure costs no other document anything, each
 * gets its own folio and error); all of them are then submitted together, so they travel in as few envelopes as
 * possible (one per envelope kind when nothing else is in flight).
 */
import type { DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError } from "../../http/errors.js";
import { batchResource, type ClaimedIdempotencyKey, type IdempotencyRecord } from "../../http/idempotency.js";
import { batchItemError, type BatchItemError } from "./batch-item-error.js";
import { claimDocumentKeys, settleDocumentKeys, splitDocumentKeys } from "./document-keys.js";
import { documentsByIds } from "./find-document.js";
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
  /** The document's `idempotency_key` named a document emitted before: this is it, and nothing was emitted now. */
  replayed?: true;
}

/**
 * With an Idempotency-Key each created document is linked to the key as `index=id` in the transaction that creates
 * it; when the first request died part-way, the retry (`idempotency.resume`) reuses those documents and emits only
 * the items that have none, so no item ever gets a second folio. A document's own `idempotency_key`
 * (`document-keys.ts`) is claimed before it is emitted and bound to it in the same transaction.
 *
 * `keyScope` is the Idempotency-Key scope of the request's credential (`idempotencyScope`): documents' keys live in
 * it, beside those of `/dte/emit`.
 */
export async function emitBatch(
  deps: Deps,
  scope: BusinessScope,
  bodies: unknown[],
  { idempotency = null, keyScope }: { idempotency?: ClaimedIdempotencyKey | null; keyScope: string },
): Promise<{ results: BatchItemResult[] }> {
  const created = new Map<number, DocumentRow>();
  const replayed = new Map<number, string>();
  const results: BatchItemResult[] = [];
  const fail = (index: number, error: unknown) => results.push({ index, success: false, error: batchItemError(deps, index, error) });
  const resumed = await resumedDocuments(deps, scope, batchResource(idempotency?.resume));
  const keyed = await splitDocumentKeys(bodies);
  const toClaim = new Map<number, { key: string; hash: string }>();
  for (const [index, { key, hash }] of keyed.entries()) if (key && hash && !resumed.has(index)) toClaim.set(index, { key, hash });
  const claims = await claimDocumentKeys(deps, keyScope, toClaim);
  const claimed = new Map([...claims].flatMap(([index, claim]) => (!(claim instanceof ApiError) && claim.kind === "claimed" ? [[index, toClaim.get(index)?.key as string] as const] : [])));
  try {
    // Read once for every item (and the upload); when it fails, each item reads it and reports the error itself.
    const business = await loadScopeBusiness(deps, scope).catch(() => undefined);
    const toCreate: Array<{ index: number; entry: DocumentToCreate }> = [];
    for (const [index, { body, problem }] of keyed.entries()) {
      const existing = resumed.get(index);
      if (existing) {
        created.set(index, existing);
        continue;
      }
      const claim = claims.get(index);
      if (problem) fail(index, problem);
      else if (claim instanceof ApiError) fail(index, claim);
      else if (claim?.kind === "failed") fail(index, claim.error);
      else if (claim?.kind === "emitted") replayed.set(index, claim.documentId);
      else {
        try {
          const prepared = await prepareEmission(deps, scope, body, { business });
          const links: IdempotencyRecord[] = [];
          if (idempotency) links.push({ scope: idempotency.scope, key: idempotency.key, batchIndex: index });
          if (claimed.has(index)) links.push({ scope: keyScope, key: claimed.get(index) as string });
          toCreate.push({ index, entry: { scope, prepared, idempotency: links } });
        } catch (error) {
          fail(index, error);
        }
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
        if (outcome.ok) created.set(index, outcome.row);
        else fail(index, outcome.error);
      });
    }
    // Resumed items are rows read just now, like the created ones: none is read again if its upload answers here.
    const known = await sendWithinBudget(deps, [...created.values()], business);
    const unknown = [...[...created.values()].map((row) => row.id).filter((id) => !known.has(id)), ...replayed.values()];
    const byId = new Map([...known, ...(await documentsByIds(deps, scope, unknown))]);
    for (const [index, row] of created) created.set(index, byId.get(row.id) ?? row);
    for (const [index, row] of created) results.push({ index, success: true, data: presentDocument(row) });
    for (const [index, id] of replayed) {
      const row = byId.get(id);
      if (row) results.push({ index, success: true, data: presentDocument(row), replayed: true });
      else fail(index, new ApiError("IDEMPOTENCY_KEY_REUSED", "this idempotency_key names a document of another business or environment"));
    }
    return { results: results.sort((a, b) => a.index - b.index) };
  } finally {
    // Also when something above failed: a key whose document exists keeps it, the others are free again.
    await settleDocumentKeys(deps, keyScope, claimed, created);
  }
}

/** The documents of a resumed batch, by item index (only this business's and environment's). */
async function resumedDocuments(deps: Deps, scope: BusinessScope, byIndex: Map<number, string>): Promise<Map<number, DocumentRow>> {
  const byId = await documentsByIds(deps, scope, [...byIndex.values()]);
  return new Map([...byIndex].flatMap(([index, id]) => (byId.has(id) ? [[index, byId.get(id) as DocumentRow] as const] : [])));
}
