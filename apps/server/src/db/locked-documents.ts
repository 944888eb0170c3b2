/**
 * `lockedDocuments(ids)`: `SELECT … FOR UPDATE` of documents found by primary key ONLY, to be the body of a
 * `MATERIALIZED` CTE whose caller then applies its own conditions (business, state, envelope) to the locked rows.
 *
 * Why not one `where id in (…) and business_id = … and estado = …`: the planner may then drive the scan from a
 * business index and filter every document of the business, which it does whenever its statistics say the
 * business is small — a table never analysed (autovacuum off, as on the CI machine) or a business that grew since
 * the last analyse. Seen in the emission's envelope claim: ~1 000 rows filtered per call after 6 000 documents
 * (bench/RESULTS.md §6, "a claim plan that read the business"). With the id list as the only condition the
 * plan is a primary-key lookup per id (or, on a tiny table, one sequential scan) whatever the statistics say.
 * Locking a row the caller's conditions then reject is harmless: the ids are the caller's own documents, and the
 * lock only waits for a concurrent change of that row to finish.
 */
import { sql, type SQL } from "drizzle-orm";
import { columnName as col } from "./columns.js";
import { documents } from "./documents.js";

/** Columns: `id`, `business_id`, `environment`, `estado`, `envelope_id`. */
export function lockedDocuments(ids: string[]): SQL {
  return sql`
      select ${col(documents.id)} as id, ${col(documents.businessId)} as business_id, ${col(documents.environment)} as environment,
        ${col(documents.estado)} as estado, ${col(documents.envelopeId)} as envelope_id
      from ${documents}
      where ${col(documents.id)} = any(array(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)))
      for update`;
}
