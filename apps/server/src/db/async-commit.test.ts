import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { consumeRateLimit } from "../http/rate-limit.js";
import { asyncCommitCondition, asyncCommitRow } from "./async-commit.js";
import type { Db } from "./open-database.js";
import { rowsOf } from "./rows.js";

describeDrivers("statements whose commit does not wait for the disk", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => {
    await h?.close();
  });

  const setting = async (db: Db) => rowsOf<{ synchronous_commit: string }>(await db.execute(sql`show synchronous_commit`))[0]?.synchronous_commit;

  test("the rate-limit counter and both helpers turn synchronous_commit off for their own transaction only", async () => {
    expect(await setting(h.deps.db)).toBe("on");
    const now = Date.now(); // one window for both calls
    const inside = await h.deps.db.transaction(async (tx) => {
      const before = await setting(tx as unknown as Db);
      const result = await consumeRateLimit(tx as unknown as Db, "key:async-commit-test", 10, now);
      return { before, after: await setting(tx as unknown as Db), result };
    });
    expect(inside).toMatchObject({ before: "on", after: "off", result: { allowed: true, remaining: 9 } });
    expect(await setting(h.deps.db)).toBe("on");
    for (const fragment of [sql`select 1 from ${asyncCommitRow}`, sql`select 1 where ${asyncCommitCondition}`]) {
      const after = await h.deps.db.transaction(async (tx) => {
        const rows = rowsOf(await tx.execute(fragment));
        expect(rows).toHaveLength(1);
        return setting(tx as unknown as Db);
      });
      expect(after).toBe("off");
    }
    expect(await setting(h.deps.db)).toBe("on");
    // The counter still counts.
    const second = await consumeRateLimit(h.deps.db, "key:async-commit-test", 10, now);
    expect(second.remaining).toBe(8);
  });
});
