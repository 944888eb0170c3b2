/**
 * The emission's short cut to an upload: the documents it just created are in memory with their signed XML, so
 * their envelope is built first and then claimed and stored in ONE statement — instead of a claim (documents →
 * new envelope `building`), a read of their XML and a store (`uploading`). All or nothing: when any of them is no
 * longer claimable (someone else put it in an envelope, or it changed state), nothing is written and the caller
 * takes the general path, which claims what is left. The statement commits synchronously: it is the durable record
 * that an upload may follow (BRIEF §8 UPLOAD_UNKNOWN), written before any byte leaves for the SII.
 */
import { sql } from "drizzle-orm";
import { columnName as col } from "../db/columns.js";
import { documents, envelopes } from "../db/documents.js";
import type { StoredEnvelope } from "../db/envelope-layout.js";
import { planEachCall } from "../db/preparing-client.js";
import { rowsOf } from "../db/rows.js";
import type { Deps } from "../deps.js";
import { claimableDocuments } from "./claimable-documents.js";
import type { GroupKey } from "./upload-envelope.js";

/**
 * True when every one of `ids` was PENDIENTE in no envelope and now belongs to the stored envelope `envelopeId`
 * (`uploading`, stored as `stored`: its skeleton and layout, or whole); false when nothing was written.
 *
 * The documents are locked by primary key only (`claimableDocuments`) and the claim's conditions are applied to the
 * locked rows, so the statement costs the same at any table size whatever the statistics say. Planned on every
 * call (`planEachCall`), like the general claim.
 */
export async function storeHeldEnvelope(deps: Deps, group: GroupKey, ids: string[], envelopeId: string, stored: StoredEnvelope): Promise<boolean> {
  const now = deps.now().toISOString();
  const result = await deps.db.execute(
    planEachCall(sql`
    with ${claimableDocuments(group, ids)},
    complete as (select count(*) = ${ids.length}::int as ok from claimable),
    stored as (
      insert into ${envelopes} (${col(envelopes.id)}, ${col(envelopes.businessId)}, ${col(envelopes.environment)}, ${col(envelopes.kind)}, ${col(envelopes.xml)}, ${col(envelopes.layout)}, ${col(envelopes.status)}, ${col(envelopes.createdAt)}, ${col(envelopes.updatedAt)})
      select ${envelopeId}, ${group.businessId}, ${group.environment}, ${group.kind}, ${stored.xml}::bytea, ${stored.layout === null ? null : JSON.stringify(stored.layout)}::jsonb, 'uploading', ${now}::timestamptz, ${now}::timestamptz
      from complete where complete.ok
    ),
    claimed as (
      update ${documents} set ${col(documents.envelopeId)} = ${envelopeId}
      where ${col(documents.id)} in (select ${col(documents.id)} from claimable) and (select ok from complete)
      returning 1
    )
    select count(*)::int as n from claimed`),
  );
  const [row] = rowsOf<{ n: number | string }>(result);
  return Number(row?.n ?? 0) === ids.length;
}
