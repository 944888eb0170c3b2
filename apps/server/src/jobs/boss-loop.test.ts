import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { openDatabase, type Database } from "../db/open-database.js";
import { rowsOf } from "../db/rows.js";
import { startBossLoop, type Loop } from "./boss-loop.js";
import { openJobQueue, type JobQueue } from "./job-queue.js";

async function until(what: string, probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/** A tick that counts its calls and reports "more" for the first `more` calls. */
function counter(more = 0) {
  const c = { calls: 0, tick: async () => ++c.calls <= more };
  return c;
}

describeDrivers("worker rounds on pg-boss", (driver) => {
  let h: Harness;
  let boss: JobQueue;
  let n = 0;
  const queue = () => `test-rounds-${++n}`;
  beforeAll(async () => {
    h = await createHarness(driver);
    boss = await openJobQueue(h.database.jobStore, h.deps.log);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: true, close: true, timeout: 5_000 });
    await h?.close();
  });

  test("a worker runs a round at start, then one every interval, and none after stop()", async () => {
    const c = counter();
    const loop = await startBossLoop({ boss, queue: queue(), intervalMs: 600, tick: c.tick, log: h.deps.log });
    await until("three rounds", () => c.calls >= 3);
    await loop.stop();
    const after = c.calls;
    await Bun.sleep(1_500);
    expect(c.calls).toBe(after);
  }, 15_000);

  test("wake() runs a round at once although the next one is an hour away; wake-ups sent during a round collapse into one; a full batch runs again in the round", async () => {
    // The second round holds in its tick until released, so the three wake-ups below are sent while it runs.
    let hold: Promise<void> | null = null;
    let release = () => {};
    let calls = 0;
    const tick = async () => {
      calls++;
      if (hold) await hold;
      return false;
    };
    const name = queue();
    const loop = await startBossLoop({ boss, queue: name, intervalMs: 3_600_000, tick, log: h.deps.log });
    const queuedWakeUps = async () =>
      rowsOf<{ n: number }>(
        await h.deps.db.execute(sql`select count(*)::int as n from pgboss.job where name = ${name} and singleton_key = 'now' and state = 'created'`),
      )[0]!.n;
    try {
      await until("the first round", () => calls === 1);
      await Bun.sleep(700);
      expect(calls).toBe(1);
      hold = new Promise<void>((resolve) => (release = resolve));
      await loop.wake();
      await until("the woken round", () => calls === 2, 3_000);
      // One round runs at a time per worker, so these stay queued, and the `short` policy keeps one of them.
      await Promise.all([loop.wake(), loop.wake(), loop.wake()]);
      expect(await queuedWakeUps()).toBe(1);
      hold = null;
      release();
      await until("the one round the three wake-ups asked for", () => calls === 3, 6_000);
      // Longer than the worker's poll (2 s): nothing else was asked for, so nothing else runs.
      await Bun.sleep(2_500);
      expect(calls).toBe(3);
      expect(await queuedWakeUps()).toBe(0);
    } finally {
      release();
      await loop.stop();
    }
    const more = counter(2);
    const loop2 = await startBossLoop({ boss, queue: queue(), intervalMs: 3_600_000, tick: more.tick, log: h.deps.log });
    try {
      await until("a round of three batches", () => more.calls === 3);
    } finally {
      await loop2.stop();
    }
  }, 25_000);

  test("a failing tick is logged and the chain of rounds goes on", async () => {
    let calls = 0;
    const tick = async () => {
      calls++;
      throw new Error("boom");
    };
    const loop = await startBossLoop({ boss, queue: queue(), intervalMs: 500, tick, log: h.deps.log });
    try {
      await until("rounds after failures", () => calls >= 3);
    } finally {
      await loop.stop();
    }
    expect(h.logs.some((line) => line.includes("worker.tick_failed") && line.includes("boom"))).toBe(true);
  }, 15_000);

  test("without LISTEN (DATABASE_PREPARE=false, behind a transaction pooler) a wake-up is found by the next poll", async () => {
    const quiet = await openJobQueue(h.database.jobStore, h.deps.log, { listen: false });
    const c = counter();
    const loop = await startBossLoop({ boss: quiet, queue: queue(), intervalMs: 3_600_000, tick: c.tick, log: h.deps.log });
    try {
      await until("the first round", () => c.calls === 1);
      loop.wake();
      await until("the woken round", () => c.calls === 2, 5_000);
    } finally {
      await loop.stop();
      await quiet.stop({ graceful: true, close: true, timeout: 5_000 });
    }
  }, 15_000);

  test("pg-boss keeps its jobs in the same database", async () => {
    const rows = rowsOf<{ n: number }>(await h.deps.db.execute(sql`select count(*)::int as n from pgboss.job where name like 'test-rounds-%'`));
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  // PGlite is one process by construction.
  test.skipIf(driver !== "postgres")("processes share one schedule: rounds go on in another process after one stops, and a wake-up from one runs in the other", async () => {
    const second: Database = await openDatabase({ databaseUrl: (h.database.jobStore as { url: string }).url, dataDir: "/nonexistent", memory: true });
    const boss2 = await openJobQueue(second.jobStore, h.deps.log);
    try {
      const name = queue();
      const a = counter();
      const b = counter();
      const loopA: Loop = await startBossLoop({ boss, queue: name, intervalMs: 600, tick: a.tick, log: h.deps.log });
      const loopB: Loop = await startBossLoop({ boss: boss2, queue: name, intervalMs: 600, tick: b.tick, log: h.deps.log });
      await until("rounds", () => a.calls + b.calls >= 4);
      // One chain for both: over 3 s at one round per 600 ms there are about 5 rounds, not 10.
      const start = a.calls + b.calls;
      await Bun.sleep(3_000);
      expect(a.calls + b.calls - start).toBeLessThanOrEqual(8);
      await loopA.stop();
      const bBefore = b.calls;
      await until("rounds in the process left", () => b.calls >= bBefore + 2);
      // A wake-up sent by a process that does not work on the queue runs in the one that does.
      const c = counter();
      const loopC = await startBossLoop({ boss: boss2, queue: `${name}-wake`, intervalMs: 3_600_000, tick: c.tick, log: h.deps.log });
      await until("the first round", () => c.calls >= 1);
      const before = c.calls;
      await boss.send(`${name}-wake`, null, { singletonKey: "now" });
      await until("the round woken by the other process", () => c.calls === before + 1, 3_000);
      await loopB.stop();
      await loopC.stop();
    } finally {
      await boss2.stop({ graceful: true, close: true, timeout: 5_000 });
      await second.close();
    }
  }, 30_000);
});
