/** One received document of the caller's business and environment, or 404. */
import { and, eq } from "drizzle-orm";
import { receivedDocuments, type ReceivedDocumentRow } from "../../db/received.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { notFound } from "../../http/errors.js";
import { isId } from "../../ids.js";

export async function findReceived(deps: Deps, scope: BusinessScope, id: string): Promise<ReceivedDocumentRow> {
  if (!isId("received", id)) throw notFound("received document");
  const [row] = await deps.db
    .select()
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.businessId, scope.businessId), eq(receivedDocuments.environment, scope.environment)));
  if (!row) throw notFound("received document");
  return row;
}
