/**
 * Webhook receiver outages across a real server restart (what src/jobs/*.test.ts does not cover in-process): the
 * receiver is down (connection refused) while documents change state, the server process is SIGKILLed and
 * restarted during the outage, then the receiver answers 500, then once slower than 10 s, then 200. Every event
 * of the business is delivered at least once with a valid Standard Webhooks signature; nothing is lost. The retry
 * schedule (5 s, 5 min, …) is fast-forwarded by moving due rows to now.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { http, loadBody, setUpEmitters, startCluster, type Cluster, type Emitter } from "./support/cluster.js";

const BASE = process.env.DATABASE_URL;
const DOCS = 6;

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(200);
  }
}

interface Receiver {
  received: { headers: Record<string, string>; body: string }[];
  stop(): Promise<void>;
}

/** A receiver on a fixed loopback port (so the URL stored in the business stays valid across its outage). */
function startReceiver(answer: () => Promise<Response>, port: number): Receiver {
  const received: Receiver["received"] = [];
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    idleTimeout: 60,
    async fetch(request) {
      const r = { headers: Object.fromEntries(request.headers.entries()), body: await request.text() };
      const response = await answer();
      if (response.status < 300) received.push(r);
      return response;
    },
  });
  return { received, stop: () => server.stop(true) };
}

/** A free loopback port (taken then released). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = probe.port ?? 0;
  void probe.stop(true);
  return port;
}

if (!BASE) {
  describe("webhook receiver outages across a server restart [postgres]", () => {
    test.skip("skipped: DATABASE_URL is not set", () => {});
  });
} else {
  describe("webhook receiver outages across a server restart [postgres]", () => {
    let cluster: Cluster;
    let emitter: Emitter;
    let secret: string;
    let receiver: Receiver | null = null;
    const port = freePort();
    const url = `http://127.0.0.1:${port}/hooks/timbre`;

    beforeAll(async () => {
      cluster = await startCluster({ servers: 1, baseUrl: BASE, env: { EMIT_BUDGET_MS: "3000" } });
      const base = cluster.servers[0]?.url ?? "";
      const set = await setUpEmitters(base, 1, [33], 100);
      emitter = set.emitters[0] as Emitter;
      const put = await http(base, "PUT", `/v1/businesses/${emitter.businessId}`, { token: set.token, body: { webhook_url: url } });
      expect(put.status).toBe(200);
      secret = put.json.data.webhook_secret;
    }, 180_000);

    afterAll(async () => {
      await receiver?.stop();
      await cluster?.close();
    }, 60_000);

    const fastForward = () => cluster.sql`update webhook_deliveries set due_at = now() where state in ('pending', 'retrying') and due_at > now()`;
    const attempts = async () => Number((await cluster.sql`select count(*)::int as n from webhook_deliveries where at is not null`)[0]?.n);

    test("down → server killed and restarted → 500 → slow (> 10 s) → 200: every event delivered, signed, none lost", async () => {
      let base = cluster.servers[0]?.url ?? "";
      // Phase 1: receiver down while documents are emitted and accepted.
      const emitted = await Promise.all(Array.from({ length: DOCS }, (_, i) => http(base, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(33, i) })));
      expect(emitted.map((r) => r.status)).toEqual(Array(DOCS).fill(201));
      await until("the documents ACEPTADO", async () => Number((await cluster.sql`select count(*)::int as n from documents where estado = 'ACEPTADO'`)[0]?.n) === DOCS, 60_000);
      await until("failed attempts against the dead receiver", async () => (await attempts()) >= DOCS, 30_000);
      const refused = await cluster.sql`select count(*)::int as n from webhook_deliveries where at is not null and status_code is null`;
      expect(Number(refused[0]?.n)).toBeGreaterThanOrEqual(DOCS);

      // Phase 2: the server dies mid-outage and comes back.
      await cluster.kill(0);
      base = (await cluster.restart(0)).url;

      // Phase 3: the receiver answers 500, then once takes 11 s, then 200.
      let mode: "500" | "slow" | "ok" = "500";
      let slowOnce = true;
      let errors = 0;
      receiver = startReceiver(async () => {
        if (mode === "500") {
          errors++;
          return new Response("boom", { status: 500 });
        }
        if (mode === "slow" && slowOnce) {
          slowOnce = false;
          await Bun.sleep(11_000);
        }
        return new Response("ok");
      }, port);
      await fastForward();
      await until("500 answers", async () => errors >= 3, 30_000);
      mode = "slow";
      await fastForward();
      await until("the slow attempt", async () => !slowOnce, 30_000);
      await Bun.sleep(11_500);
      mode = "ok";
      const events = await cluster.sql`select id from events where business_id = ${emitter.businessId}`;
      expect(events.length).toBeGreaterThanOrEqual(DOCS * 2); // PENDIENTE→ENVIADO and ENVIADO→ACEPTADO at least
      await until("every event delivered", async () => {
        await fastForward();
        const delivered = await cluster.sql`select distinct event_id from webhook_deliveries where state = 'delivered'`;
        return delivered.length >= events.length;
      }, 60_000);

      const verifier = new Webhook(secret);
      const okIds = new Set<string>();
      for (const r of receiver?.received ?? []) {
        const payload = verifier.verify(r.body, r.headers) as { id: string; data: { dte_id: string } };
        expect(payload.id).toBe(r.headers["webhook-id"] ?? "");
        okIds.add(payload.id);
      }
      expect(events.map((e) => e.id as string).filter((id) => !okIds.has(id))).toEqual([]);
      const failed = await cluster.sql`select count(*)::int as n from webhook_deliveries where state = 'failed'`;
      expect(Number(failed[0]?.n)).toBe(0);
      console.log(`webhooks: ${events.length} events, ${receiver?.received.length} deliveries answered 200, ${errors} answered 500, ${await attempts()} attempts recorded`);
    }, 240_000);
  });
}
