import { and, eq } from "drizzle-orm";
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
