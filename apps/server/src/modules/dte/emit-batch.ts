/**
 * `POST /v1/dte/batch`: every valid document is emitted with its own folio (each in its own transaction, so one
 * failure costs no other document anything); all of them are then submitted together, so they travel in as few
 * envelopes as possible (one per envelope kind when nothing else is in flight).
 */
import { inArray } from "drizzle-orm";
import { documents, type DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { toApiError } from "../../http/errors.js";
import { createDocument } from "./create-document.js";
import { prepareEmission } from "./prepare-emission.js";
import { presentDocument, type DteView } from "./present-document.js";
import { sendWithinBudget } from "./send-within-budget.js";

export interface BatchItemResult {
  index: number;
  success: boolean;
  data?: DteView;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

export async function emitBatch(deps: Deps, scope: BusinessScope, bodies: unknown[]): Promise<{ results: BatchItemResult[] }> {
  const created: Array<{ index: number; row: DocumentRow }> = [];
  const results: BatchItemResult[] = [];
  for (const [index, body] of bodies.entries()) {
    try {
      const prepared = await prepareEmission(deps, scope, body);
      created.push({ index, row: await createDocument(deps, scope, prepared) });
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.apiCode === "INTERNAL_ERROR") deps.log.error("dte.batch_item_failed", { index, message: error instanceof Error ? error.message.slice(0, 300) : String(error) });
      const failure: BatchItemResult["error"] = { code: apiError.apiCode, message: apiError.message };
      if (apiError.details !== undefined) failure.details = apiError.details;
      results.push({ index, success: false, error: failure });
    }
  }
  const ids = created.map((c) => c.row.id);
  await sendWithinBudget(deps, ids);
  const rows = ids.length === 0 ? [] : await deps.db.select().from(documents).where(inArray(documents.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const { index, row } of created) results.push({ index, success: true, data: presentDocument(byId.get(row.id) ?? row) });
  return { results: results.sort((a, b) => a.index - b.index) };
}
