import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { createBusiness, signUp } from "../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { changeState, deliveriesOfEvent, eventIdsOf, seedDocument, startReceiver, type Receiver } from "../../test/support/webhooks.js";
import { webhookDeliveries } from "../db/events.js";
import { openDatabase } from "../db/open-database.js";
import { rowsOf } from "../db/rows.js";
import type { Deps } from "../deps.js";
import { DELIVERY_TIMEOUT_MS } from "../webhooks/schedule.js";
import { claimDeliveries } from "./claim-deliveries.js";
import { createWebhookWorker, type WebhookWorker } from "./deliver-webhooks.js";

/** Runs the worker until nothing is due or in flight. */
async function drain(worker: WebhookWorker, rounds = 50): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const more = await worker.tick();
    await worker.idle();
    if (!more && !(await worker.tick())) {
      await worker.idle();
      return;
    }
  }
}

async function businessWithHook(h: Harness, url: string) {
  const user = await signUp(h);
  const business = await createBusiness(h, user.token, { webhook_url: url });
  return { user, business, secret: business.webhook_secret as string };
}

/** A second pool on the same PostgreSQL database (null on PGlite, which is single-connection). */
async function secondConnection(h: Harness): Promise<{ deps: Deps; close(): Promise<void> } | null> {
  const base = process.env.DATABASE_URL;
  if (h.driver !== "postgres" || !base) return null;
  const [row] = rowsOf<{ name: string }>(await h.deps.db.execute(sql`select current_database() as name`));
  const url = new URL(base);
  url.pathname = `/${row!.name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: "/nonexistent", memory: true });
  return { deps: { ...h.deps, db: database.db }, close: () => database.close() };
}

describeDrivers("webhook delivery worker", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { WEBHOOK_ALLOW_PRIVATE: "true" });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  }, 60_000);

  test("a status change reaches the receiver, signed (standardwebhooks verifies) with the spec's fields", async () => {
    const receiver = startReceiver();
    try {
      const { business, secret } = await businessWithHook(h, receiver.url);
      const doc = await seedDocument(h, business.id);
      await changeState(h, doc, "ENVIADO");
      await drain(createWebhookWorker(h.deps));
      expect(receiver.received).toHaveLength(1);
      const r = receiver.received[0]!;
      expect(r.headers["content-type"]).toBe("application/json");
      const payload = new Webhook(secret).verify(r.body, r.headers) as Record<string, any>;
      expect(payload.event).toBe("dte.status_changed");
      expect(payload.id).toBe(r.headers["webhook-id"]!);
      expect(payload.id).toMatch(/^evt_[0-9a-z]{26}$/);
      expect(payload.environment).toBe("test");
      expect(payload.business_id).toBe(business.id);
      expect(payload.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(payload.data).toEqual({ dte_id: doc.id, tipo: 33, folio: 1, old_status: "PENDIENTE", new_status: "ENVIADO", timestamp: expect.stringMatching(/Z$/) });
      const [delivery] = await deliveriesOfEvent(h, payload.id);
      expect(delivery).toMatchObject({ attempt: 1, state: "delivered", statusCode: 200, error: null });
    } finally {
      await receiver.stop();
    }
  });

  test("the receiver answers 500, then 200: delivered on the retry, both attempts recorded", async () => {
    const receiver = startReceiver((_r, i) => new Response(i === 0 ? "boom" : "ok", { status: i === 0 ? 500 : 200 }));
    try {
      const { business, secret } = await businessWithHook(h, receiver.url);
      await changeState(h, await seedDocument(h, business.id), "ENVIADO");
      const delays: number[] = [];
      const worker = createWebhookWorker(h.deps, { retryDelayMs: (attempt) => (delays.push(attempt), 100) });
      await drain(worker);
      expect(receiver.received).toHaveLength(1);
      const [eventId] = await eventIdsOf(h, business.id);
      let rows = await deliveriesOfEvent(h, eventId!);
      expect(rows.map((d) => [d.attempt, d.state, d.statusCode])).toEqual([[1, "retrying", 500], [2, "pending", null]]);
      expect(rows[1]!.dueAt.getTime() - rows[0]!.at!.getTime()).toBeGreaterThanOrEqual(100);
      await Bun.sleep(150);
      await drain(worker);
      expect(receiver.received).toHaveLength(2);
      expect(delays).toEqual([1]);
      rows = await deliveriesOfEvent(h, eventId!);
      expect(rows.map((d) => [d.attempt, d.state, d.statusCode])).toEqual([[1, "retrying", 500], [2, "delivered", 200]]);
      expect(rows[0]!.error).toBe("HTTP 500");
      for (const r of receiver.received) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
    } finally {
      await receiver.stop();
    }
  });

  test("the default schedule: a failed first attempt is retried 5 s later; the last one is marked failed", async () => {
    const receiver = startReceiver(() => new Response("no", { status: 503 }));
    try {
      const { business } = await businessWithHook(h, receiver.url);
      await changeState(h, await seedDocument(h, business.id), "ENVIADO");
      const before = Date.now();
      await drain(createWebhookWorker(h.deps));
      const [eventId] = await eventIdsOf(h, business.id);
      const rows = await deliveriesOfEvent(h, eventId!);
      expect(rows[1]!.dueAt.getTime() - before).toBeGreaterThanOrEqual(5_000);
      expect(rows[1]!.dueAt.getTime() - before).toBeLessThan(7_000);
      // Attempt 8 has nothing after it.
      await h.deps.db.update(webhookDeliveries).set({ attempt: 8, dueAt: new Date() }).where(eq(webhookDeliveries.id, rows[1]!.id));
      await drain(createWebhookWorker(h.deps));
      const after = await deliveriesOfEvent(h, eventId!);
      expect(after.map((d) => [d.attempt, d.state])).toEqual([[1, "retrying"], [8, "failed"]]);
    } finally {
      await receiver.stop();
    }
  });

  test("a receiver slower than the timeout: failure recorded, retry queued", async () => {
    const receiver = startReceiver(async () => {
      await Bun.sleep(1_000);
      return new Response("late");
    });
    try {
      const { business } = await businessWithHook(h, receiver.url);
      await changeState(h, await seedDocument(h, business.id), "ENVIADO");
      const started = Date.now();
      await drain(createWebhookWorker(h.deps, { timeoutMs: 200, retryDelayMs: () => 60_000 }));
      expect(Date.now() - started).toBeLessThan(900);
      const [eventId] = await eventIdsOf(h, business.id);
      const rows = await deliveriesOfEvent(h, eventId!);
      expect(rows.map((d) => [d.attempt, d.state, d.statusCode, d.error])).toEqual([[1, "retrying", null, "timeout after 200 ms"], [2, "pending", null, null]]);
    } finally {
      await receiver.stop();
    }
  });

  test("during a secret rotation every delivery verifies with the old and with the new secret", async () => {
    const receiver = startReceiver();
    try {
      const { user, business, secret: oldSecret } = await businessWithHook(h, receiver.url);
      const rotated = await h.call("POST", `/v1/businesses/${business.id}/webhook-secret`, { token: user.token });
      expect(rotated.status).toBe(200);
      const newSecret = rotated.json.data.webhook_secret as string;
      await changeState(h, await seedDocument(h, business.id), "ENVIADO");
      await drain(createWebhookWorker(h.deps));
      const r = receiver.received[0]!;
      expect(r.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
      expect(() => new Webhook(oldSecret).verify(r.body, r.headers)).not.toThrow();
      expect(() => new Webhook(newSecret).verify(r.body, r.headers)).not.toThrow();
    } finally {
      await receiver.stop();
    }
  });

  test("durable: deliveries pending when a worker stops are delivered by a new worker, none lost", async () => {
    let hold = true;
    const receiver = startReceiver(async () => {
      while (hold) await Bun.sleep(10);
      return new Response("ok");
    });
    try {
      const { business } = await businessWithHook(h, receiver.url);
      for (let folio = 1; folio <= 6; folio++) await changeState(h, await seedDocument(h, business.id, { folio }), "ENVIADO");
      const ids = await eventIdsOf(h, business.id);
      // The first worker claims some, is cut off mid-request (shutdown) and stops.
      const first = createWebhookWorker(h.deps, { concurrency: 3, perBusiness: 3 });
      await first.tick();
      await receiver.waitFor(3);
      await first.stop();
      hold = false;
      // A new instance (a restarted process) picks up everything: the released attempts and the untouched ones.
      await drain(createWebhookWorker(h.deps));
      const delivered = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
      expect([...delivered].sort()).toEqual([...ids].sort());
      for (const id of ids) {
        const rows = await deliveriesOfEvent(h, id);
        expect(rows.filter((d) => d.state === "delivered")).toHaveLength(1);
      }
    } finally {
      await receiver.stop();
    }
  });

  test("durable: a worker that died mid-attempt (claim never finished) is taken over after its lease", async () => {
    const receiver = startReceiver();
    try {
      const { business } = await businessWithHook(h, receiver.url);
      await changeState(h, await seedDocument(h, business.id), "ENVIADO");
      const claimed = await claimDeliveries(h.deps.db, new Date(), 10, 60_000); // …and the process dies
      expect(claimed.length).toBeGreaterThanOrEqual(1);
      await drain(createWebhookWorker(h.deps));
      expect(receiver.received).toHaveLength(0); // still leased
      const later = { ...h.deps, now: () => new Date(Date.now() + 61_000) };
      await drain(createWebhookWorker(later));
      expect(receiver.received.length).toBeGreaterThanOrEqual(1);
      const [eventId] = await eventIdsOf(h, business.id);
      expect((await deliveriesOfEvent(h, eventId!)).map((d) => d.state)).toEqual(["delivered"]);
    } finally {
      await receiver.stop();
    }
  });

  test("two workers sharing the queue never deliver the same attempt twice", async () => {
    const receiver = startReceiver(async () => {
      await Bun.sleep(5);
      return new Response("ok");
    });
    try {
      const { business } = await businessWithHook(h, receiver.url);
      for (let folio = 1; folio <= 30; folio++) await changeState(h, await seedDocument(h, business.id, { folio }), "ENVIADO");
      // On PostgreSQL the second worker has its own connection pool, like another server process.
      const other = await secondConnection(h);
      try {
        const a = createWebhookWorker(h.deps, { concurrency: 4, perBusiness: 4 });
        const b = createWebhookWorker(other?.deps ?? h.deps, { concurrency: 4, perBusiness: 4 });
        await Promise.all([drain(a, 200), drain(b, 200)]);
        await Promise.all([drain(a), drain(b)]);
      } finally {
        await other?.close();
      }
      const counts = new Map<string, number>();
      for (const r of receiver.received) counts.set(r.headers["webhook-id"]!, (counts.get(r.headers["webhook-id"]!) ?? 0) + 1);
      expect(counts.size).toBe(30);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await receiver.stop();
    }
  });

  test("a finished attempt refills its slot from the worker itself: one round delivers a backlog larger than the slots", async () => {
    const receiver = startReceiver();
    try {
      const { business } = await businessWithHook(h, receiver.url);
      for (let folio = 1; folio <= 12; folio++) await changeState(h, await seedDocument(h, business.id, { folio }), "ENVIADO");
      const worker = createWebhookWorker(h.deps, { concurrency: 3, perBusiness: 3 });
      expect(await worker.tick()).toBe(true); // one round: three slots filled
      await worker.idle(); // no second round
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(12);
    } finally {
      await receiver.stop();
    }
  });

  test("one business's slow receiver takes its share of the slots, not all: another business's newer events go through", async () => {
    let hold = true;
    const slow = startReceiver(async () => {
      while (hold) await Bun.sleep(10);
      return new Response("ok");
    });
    const fast = startReceiver();
    try {
      const a = await businessWithHook(h, slow.url);
      for (let folio = 1; folio <= 10; folio++) await changeState(h, await seedDocument(h, a.business.id, { folio }), "ENVIADO");
      const b = await businessWithHook(h, fast.url);
      for (let folio = 1; folio <= 5; folio++) await changeState(h, await seedDocument(h, b.business.id, { folio }), "ENVIADO");
      const worker = createWebhookWorker(h.deps, { concurrency: 4, perBusiness: 2 });
      await worker.tick();
      // All five of the second business arrive while the first business's two attempts are still held.
      await fast.waitFor(5);
      await Bun.sleep(100);
      expect(slow.received).toHaveLength(2);
      hold = false;
      await worker.idle();
      expect(new Set(slow.received.map((r) => r.headers["webhook-id"])).size).toBe(10);
      expect(new Set(fast.received.map((r) => r.headers["webhook-id"])).size).toBe(5);
    } finally {
      hold = false;
      await slow.stop();
      await fast.stop();
    }
  });

  test("a live event to an http URL is refused (https required in live)", async () => {
    const receiver = startReceiver();
    try {
      const { business } = await businessWithHook(h, receiver.url);
      await changeState(h, await seedDocument(h, business.id, { environment: "live" }), "ENVIADO");
      await drain(createWebhookWorker(h.deps, { retryDelayMs: () => null }));
      expect(receiver.received).toHaveLength(0);
      const [eventId] = await eventIdsOf(h, business.id);
      const [row] = await deliveriesOfEvent(h, eventId!);
      expect(row).toMatchObject({ state: "failed", statusCode: null, error: "webhook_url must use https" });
    } finally {
      await receiver.stop();
    }
  });
});

test("the receiver deadline is the spec's 10 s, enforced by the default worker", async () => {
  expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
  const h = await createHarness("pglite", { WEBHOOK_ALLOW_PRIVATE: "true" });
  const receiver = startReceiver(async () => {
    await Bun.sleep(11_000);
    return new Response("too late");
  });
  try {
    const { business } = await businessWithHook(h, receiver.url);
    await changeState(h, await seedDocument(h, business.id), "ENVIADO");
    const started = Date.now();
    await drain(createWebhookWorker(h.deps));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(9_900);
    expect(elapsed).toBeLessThan(10_900);
    const [eventId] = await eventIdsOf(h, business.id);
    expect((await deliveriesOfEvent(h, eventId!))[0]).toMatchObject({ state: "retrying", error: "timeout after 10000 ms" });
  } finally {
    await receiver.stop();
    await h.close();
  }
}, 20_000);
