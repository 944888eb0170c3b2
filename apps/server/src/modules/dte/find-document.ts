import { and, eq, inArray } from "drizzle-orm";
import { documents, type DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { notFound } from "../../http/errors.js";

/** A document of the caller's business and environment; anything else (other tenant, other environment) is 404. */
export async function findDocument(deps: Deps, scope: BusinessScope, id: string): Promise<DocumentRow> {
  const [row] = await deps.db
    .select()
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.businessId, scope.businessId), eq(documents.environment, scope.environment)));
  if (!row) throw notFound("document");
  return row;
}

/**
 * Documents by id, only the scope's own. By primary key only, the scope checked here: with the business in the WHERE
 * clause a plan may drive the read from a business index and filter all its documents (`db/locked-documents.ts`).
 */
export async function documentsByIds(deps: Deps, scope: BusinessScope, ids: readonly string[]): Promise<Map<string, DocumentRow>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db.select().from(documents).where(inArray(documents.id, [...new Set(ids)]));
  return new Map(rows.filter((r) => r.businessId === scope.businessId && r.environment === scope.environment).map((r) => [r.id, r]));
}
