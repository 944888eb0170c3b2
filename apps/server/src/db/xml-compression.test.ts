import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "./rows.js";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { emitter, emitWhileSiiRefusesAuthentication } from "../../test/support/emission.js";

/** Migration 0006: signed XML is compressed with lz4 where the server offers it (PostgreSQL), pglz otherwise (PGlite). */
describeDrivers("signed XML compression", (driver) => {
  let h: Harness;
  let documentId: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    const t = await emitter(h, { tipos: [33] });
    documentId = await emitWhileSiiRefusesAuthentication(h, t.key.key, t.business.id);
  }, 60_000);
  afterAll(() => h?.close());

  test("documents.xml and envelopes.xml use lz4 when the server has it, and a stored document's XML is compressed with it", async () => {
    const [offered] = rowsOf<{ lz4: boolean }>(
      await h.deps.db.execute(sql`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`),
    );
    const expected = offered?.lz4 ? "l" : "";
    if (driver === "postgres") expect(offered?.lz4).toBe(true); // Debian's PostgreSQL is built with lz4
    const columns = rowsOf<{ table: string; compression: string }>(
      await h.deps.db.execute(sql`
        select c.relname as table, a.attcompression::text as compression from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relname in ('documents', 'envelopes') and a.attname = 'xml' and c.relnamespace = 'public'::regnamespace order by 1`),
    );
    expect(columns).toEqual([{ table: "documents", compression: expected }, { table: "envelopes", compression: expected }]);
    const [stored] = rowsOf<{ method: string | null }>(
      await h.deps.db.execute(sql`select pg_column_compression(xml) as method from documents where id = ${documentId}`),
    );
    expect(stored?.method).toBe(offered?.lz4 ? "lz4" : "pglz");
  });
});
