import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "./rows.js";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { emitBody, emitInBatches, emitter } from "../../test/support/emission.js";

/**
 * Migration 0011: a document's payload (XML, TED, request, computed) lives out of line, so the row versions that
 * its state changes write are small. With the payload inline a row version was about 2.2 KB; each document here has
 * been written at least three times (created, claimed for its envelope, ENVIADO).
 */
describeDrivers("documents keep their payload out of line", (driver) => {
  let h: Harness;
  let ids: string[];
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    const t = await emitter(h, { tipos: [33] });
    ids = await emitInBatches(h, t.key.key, 40, () => emitBody(33));
  }, 60_000);
  afterAll(() => h?.close());

  test("the payload columns may go out of line; every other column stays in the row", async () => {
    const columns = rowsOf<{ name: string; storage: string }>(
      await h.deps.db.execute(sql`
        select a.attname as name, a.attstorage::text as storage from pg_attribute a
        where a.attrelid = 'public.documents'::regclass and a.attnum > 0 and not a.attisdropped and a.attstorage <> 'p' order by 1`),
    );
    const outOfLine = columns.filter((c) => c.storage === "x" || c.storage === "e").map((c) => c.name);
    expect(outOfLine.sort()).toEqual(["computed", "request", "ted", "xml"]);
    const [options] = rowsOf<{ options: string[] }>(await h.deps.db.execute(sql`select reloptions as options from pg_class where oid = 'public.documents'::regclass`));
    expect(options?.options).toContain("toast_tuple_target=128");
  });

  test("forty documents written three times each take less than 2.5 KiB of the table's own pages apiece", async () => {
    expect(ids).toHaveLength(40);
    const [state] = rowsOf<{ sent: number }>(await h.deps.db.execute(sql`select count(*)::int as sent from documents where estado <> 'PENDIENTE'`));
    expect(state?.sent).toBe(40);
    const [size] = rowsOf<{ heap: number; toast: number }>(
      await h.deps.db.execute(sql`
        select pg_relation_size('public.documents'::regclass)::int as heap, pg_relation_size(reltoastrelid)::int as toast
        from pg_class where oid = 'public.documents'::regclass`),
    );
    expect(size?.toast).toBeGreaterThan(40 * 1024); // the payload is there, not lost
    expect((size?.heap ?? Infinity) / 40).toBeLessThan(2.5 * 1024);
  });
});
