import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { MAX_PREPARED_PARAMS, planBySize, planEachCall, preparingClient, sizeClass } from "./preparing-client.js";

const url = process.env.DATABASE_URL;
if (!url) console.log("preparing-client: PostgreSQL suite skipped (DATABASE_URL is not set)");

/** The statements prepared on the one connection of `client` whose text mentions `marker`. */
async function prepared(client: postgres.Sql, marker: string): Promise<string[]> {
  const rows = await client`select statement from pg_prepared_statements`;
  return rows.map((r) => String(r.statement)).filter((s) => s.includes(marker));
}

test("size classes: one below 8 pages, then one per factor √2 of pages", () => {
  expect(sizeClass(0)).toBe(0);
  expect(sizeClass(7 * 8192)).toBe(0);
  expect(sizeClass(8 * 8192)).toBe(6);
  expect(sizeClass(11 * 8192)).toBe(6); // 8·√2 ≈ 11.3
  expect(sizeClass(12 * 8192)).toBe(7);
  expect(sizeClass(16 * 8192)).toBe(8);
  expect(sizeClass(1_000_000 * 8192)).toBe(39);
});

describe.skipIf(!url)("preparingClient [postgres]", () => {
  test("planBySize: planned per call until the table's size is known, then one named statement per size class", async () => {
    const table = `plan_size_probe_${process.pid}`;
    const client = preparingClient(postgres(url ?? "", { max: 1, onnotice: () => {} }), { sizeRefreshMs: 0 });
    const db = drizzle({ client });
    const probe = async (n: number) => {
      const [row] = await db.execute(planBySize(table, sql`select ${n}::int as sized_probe from ${sql.raw(table)} limit 1`));
      return row;
    };
    /** Runs the probe until a statement for size class `size` is prepared (the size is read in the background). */
    const preparedFor = async (size: number) => {
      for (let i = 0; i < 200; i++) {
        await probe(i);
        const names = await prepared(client, "sized_probe");
        if (names.some((s) => s.includes(`of size class ${size} */`))) return names;
        await Bun.sleep(10);
      }
      throw new Error(`no statement for size class ${size}`);
    };
    try {
      await client.unsafe(`create table ${table} (n int, pad text)`);
      await client.unsafe(`insert into ${table} values (1, 'x')`);
      expect(await probe(7)).toEqual({ sized_probe: 7 });
      const small = await preparedFor(0);
      expect(small).toHaveLength(1);
      // Grown past 16 pages: the next calls use a statement of its own, planned for that size.
      await client.unsafe(`insert into ${table} select g, repeat('x', 500) from generate_series(1, 400) g`);
      const grown = await preparedFor(sizeClass(Number((await client.unsafe(`select pg_relation_size('${table}')::float8 as b`))[0]?.b)));
      expect(grown).toHaveLength(2);
    } finally {
      await client.unsafe(`drop table if exists ${table}`);
      await client.end();
    }
  });


  test("drizzle's queries become named prepared statements, in and out of transactions; without it they are not", async () => {
    const plain = postgres(url ?? "", { max: 1, onnotice: () => {} });
    const wrapped = preparingClient(postgres(url ?? "", { max: 1, onnotice: () => {} }));
    try {
      for (const [client, expected] of [[plain, 0], [wrapped, 1]] as const) {
        const db = drizzle({ client });
        const outside = await db.execute(sql`select ${41}::int + 1 as answer_outside`);
        expect(outside[0]).toEqual({ answer_outside: 42 });
        await db.transaction(async (tx) => {
          await tx.execute(sql`select ${1}::int as inside_tx`);
          await tx.transaction(async (nested) => {
            await nested.execute(sql`select ${2}::int as inside_savepoint`);
          });
        });
        expect(await prepared(client, "answer_outside")).toHaveLength(expected);
        expect(await prepared(client, "inside_tx")).toHaveLength(expected);
        expect(await prepared(client, "inside_savepoint")).toHaveLength(expected);
      }
      // Reused, not prepared again: the same text twice leaves one statement.
      const db = drizzle({ client: wrapped });
      await db.execute(sql`select ${1}::int as reused_twice`);
      await db.execute(sql`select ${2}::int as reused_twice`);
      expect(await prepared(wrapped, "reused_twice")).toHaveLength(1);
      // A long IN list (a batch) stays unnamed: no statement per list length.
      const ids = (n: number) => Array.from({ length: n }, (_, i) => i);
      const inList = (n: number) => sql`select count(*) as long_list from (select 1) t where 1 in (${sql.join(ids(n).map((i) => sql`${i}::int`), sql`, `)})`;
      await db.execute(inList(MAX_PREPARED_PARAMS));
      await db.execute(inList(MAX_PREPARED_PARAMS + 1));
      await db.execute(inList(300));
      expect(await prepared(wrapped, "long_list")).toHaveLength(1);
      // A statement marked planEachCall stays unnamed, so PostgreSQL never caches a generic plan for it.
      for (let i = 0; i < 7; i++) {
        const [row] = await db.execute(planEachCall(sql`select ${i}::int as planned_each_call`));
        expect(row).toEqual({ planned_each_call: i });
      }
      expect(await prepared(wrapped, "planned_each_call")).toHaveLength(0);
    } finally {
      await plain.end();
      await wrapped.end();
    }
  });
});
