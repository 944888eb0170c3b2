/**
 * Webhook delivery throughput and fairness: `DATABASE_URL=postgres://… bun bench/webhook-delivery.ts [--events 3000]
 * [--slow-ms 2000] [--slow-events 200]`. One process: a scratch PostgreSQL database (the tests' harness), the
 * webhook worker as the server starts it (pg-boss rounds, default concurrency), loopback receivers.
 *
 * 1. Backlog: `--events` events of one business are due at once; the time until the receiver has them all gives
 *    deliveries per second.
 * 2. Fairness: a business whose receiver answers after `--slow-ms` has `--slow-events` due, then a second business
 *    gets 50 events; how long those 50 take while the slow backlog is being worked.
 *
 * Events and their first delivery rows are inserted directly (as `recordEvent` writes them), so the state changes
 * that normally produce them cost nothing here; what is measured is claim → sign → POST → record.
 */
import { createBusiness, signUp } from "../apps/server/test/support/fixtures.js";
import { createHarness, type Harness } from "../apps/server/test/support/harness.js";
import { startReceiver, type Receiver } from "../apps/server/test/support/webhooks.js";
import { events, webhookDeliveries } from "../apps/server/src/db/events.js";
import { newId } from "../apps/server/src/ids.js";
import { startWorkers } from "../apps/server/src/jobs/start-workers.js";
import { arg, machine } from "./machine.js";

if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL (PostgreSQL) is required");
const EVENTS = Number(arg("events", "3000"));
const SLOW_MS = Number(arg("slow-ms", "2000"));
const SLOW_EVENTS = Number(arg("slow-events", "200"));

async function seedEvents(h: Harness, businessId: string, n: number): Promise<void> {
  const now = new Date();
  for (let from = 0; from < n; from += 500) {
    const rows = Array.from({ length: Math.min(500, n - from) }, (_, i) => ({
      id: newId("event"),
      businessId,
      environment: "test" as const,
      event: "dte.status_changed",
      data: { dte_id: `dte_bench_${from + i}`, tipo: 33, folio: from + i + 1, old_status: "PENDIENTE", new_status: "ENVIADO" },
    }));
    await h.deps.db.insert(events).values(rows);
    await h.deps.db.insert(webhookDeliveries).values(rows.map((e) => ({ id: newId("delivery"), eventId: e.id, attempt: 1, state: "pending" as const, dueAt: now })));
  }
}

async function waitFor(receiver: Receiver, n: number, timeoutMs: number): Promise<number> {
  const start = performance.now();
  await receiver.waitFor(n, timeoutMs);
  return performance.now() - start;
}

console.log(machine());
console.log(`command: DATABASE_URL=… bun bench/webhook-delivery.ts --events ${EVENTS} --slow-ms ${SLOW_MS} --slow-events ${SLOW_EVENTS}`);
const h = await createHarness("postgres", { WEBHOOK_ALLOW_PRIVATE: "true" });
const user = await signUp(h);
const fast = startReceiver();
const slow = startReceiver(async () => {
  await Bun.sleep(SLOW_MS);
  return new Response("ok");
});
const workers = await startWorkers(h.deps, h.database.jobStore, { engine: null, only: ["webhooks"] });
try {
  const a = await createBusiness(h, user.token, { webhook_url: fast.url, rut: "76192083-9" });
  await seedEvents(h, a.id, EVENTS);
  workers.wake("webhooks");
  const ms = await waitFor(fast, EVENTS, 600_000);
  console.log(`backlog: ${EVENTS} deliveries in ${(ms / 1000).toFixed(2)} s → ${((EVENTS * 1000) / ms).toFixed(0)} deliveries/s`);

  const b = await createBusiness(h, user.token, { webhook_url: slow.url, rut: "60803000-K" });
  const c = await createBusiness(h, user.token, { webhook_url: fast.url, rut: "11111111-1" });
  await seedEvents(h, b.id, SLOW_EVENTS);
  workers.wake("webhooks");
  await Bun.sleep(200);
  const before = fast.received.length;
  await seedEvents(h, c.id, 50);
  workers.wake("webhooks");
  const fairMs = await waitFor(fast, before + 50, 600_000);
  console.log(
    `fairness: 50 deliveries of a second business took ${(fairMs / 1000).toFixed(2)} s while one with a ${SLOW_MS} ms receiver had ${SLOW_EVENTS} due (it had received ${slow.received.length} by then)`,
  );
} finally {
  await workers.stop();
  await fast.stop();
  await slow.stop();
  await h.close();
}
