import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.js";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { emitter, emitWhileSiiRefusesAuthentication } from "../../test/support/emission.js";
import { claimableDocuments } from "./claimable-documents.js";

/**
 * The envelope claims find their documents by primary key whatever the statistics say. Before, with `documents`
 * never analysed (autovacuum off) the planner drove the claim from the business's `documents_tipo_idx` and
 * filtered every document of the business on every envelope: the cost grew with the business.
 */
describeDrivers("claimableDocuments: an envelope's claim reads its documents by primary key", (driver) => {
  let h: Harness;
  let businessId: string;
  let ids: string[];
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    const t = await emitter(h, { tipos: [33] });
    businessId = t.business.id;
    ids = [await emitWhileSiiRefusesAuthentication(h, t.key.key, businessId), await emitWhileSiiRefusesAuthentication(h, t.key.key, businessId)];
    // 3 000 more documents of the same business, final, and no statistics about them.
    await h.deps.db.execute(sql`
      insert into documents (id, business_id, environment, numeration_id, tipo, folio, fecha, fecha_emision, receptor_rut,
        receptor_razon_social, monto_neto, monto_exento, monto_iva, monto_total, estado, request, computed, xml, ted,
        check_attempts, created_at, updated_at)
      select 'doc_bulk_' || g, business_id, environment, numeration_id, tipo, 100000 + g, fecha, fecha_emision, receptor_rut,
        receptor_razon_social, monto_neto, monto_exento, monto_iva, monto_total, 'ACEPTADO', request, computed, xml, ted,
        0, created_at, updated_at
      from documents, generate_series(1, 3000) as g where id = ${ids[0]}`);
  }, 120_000);
  afterAll(() => h?.close());

  test("the plan locks by the primary key and touches no index of the business", async () => {
    const group = { businessId, environment: "test" as const };
    const plan = rowsOf<Record<string, string>>(
      await h.deps.db.execute(sql`explain with ${claimableDocuments(group, ids)} select id from claimable`),
    )
      .map((r) => Object.values(r)[0])
      .join("\n");
    expect(plan).toContain("documents_pkey");
    expect(plan).not.toMatch(/documents_(list|newest|estado|receptor|list_folio|tipo|work)_idx|Seq Scan on documents/);
  });

  test("it finds exactly the claimable ones among the listed documents", async () => {
    const found = rowsOf<{ id: string }>(
      await h.deps.db.execute(sql`with ${claimableDocuments({ businessId, environment: "test" }, [...ids, "doc_bulk_1", "doc_missing"])} select id from claimable`),
    ).map((r) => r.id);
    expect(found.sort()).toEqual([...ids].sort());
    const otherBusiness = rowsOf<{ id: string }>(
      await h.deps.db.execute(sql`with ${claimableDocuments({ businessId: "biz_other", environment: "test" }, ids)} select id from claimable`),
    );
    expect(otherBusiness).toHaveLength(0);
  });
});
