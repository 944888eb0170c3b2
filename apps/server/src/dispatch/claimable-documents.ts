/**
 * The two CTEs every envelope claim starts with: `locked` (the listed documents, locked by primary key only —
 * `lockedDocuments`) and `claimable` (`id`: those of the envelope's business and environment that are still
 * PENDIENTE and in no envelope). Used by the general claim (`upload-envelope.ts`) and the emission's one-statement
 * store (`store-held-envelope.ts`). Put them first in a `with` list: `with ${claimableDocuments(group, ids)}, …`.
 */
import { sql, type SQL } from "drizzle-orm";
import { lockedDocuments } from "../db/locked-documents.js";
import type { GroupKey } from "./upload-envelope.js";

export function claimableDocuments(group: Pick<GroupKey, "businessId" | "environment">, ids: string[]): SQL {
  return sql`
    locked as materialized (${lockedDocuments(ids)}),
    claimable as (
      select id from locked
      where business_id = ${group.businessId} and environment = ${group.environment}
        and estado = 'PENDIENTE' and envelope_id is null
    )`;
}
