import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { MAX_PREPARED_PARAMS, planEachCall, preparingClient } from "./preparing-client.js";

const url = process.env.DATABASE_URL;
if (!url) console.log("preparing-client: PostgreSQL suite skipped (DATABASE_URL is not set)");

/** The statements prepared on the one connection of `client` whose text mentions `marker`. */
async function prepared(client: postgres.Sql, marker: string): Promise<string[]> {
  const rows = await client`select statement from pg_prepared_statements`;
  return rows.map((r) => String(r.statement)).filter((s) => s.includes(marker));
}

describe.skipIf(!url)("preparingClient [postgres]", () => {
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
