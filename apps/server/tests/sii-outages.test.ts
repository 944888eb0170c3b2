/**
 * Tax-authority outages over many documents with the workers running: the sandbox stops answering (`down`),
 * answers 500, answers HTML, or never answers (`timeout`) — for every path, authentication and status queries
 * included. Emissions during the outage answer 202 PENDIENTE; the dispatcher keeps trying while the outage lasts;
 * after recovery every document reaches ACEPTADO on its own, and the sandbox received each folio exactly once.
 * A second part stops the external sandbox PROCESS mid-load and restarts it (server process + workers).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { inArray } from "drizzle-orm";
import type { FaultMode, Sandbox } from "@timbre/sii";
import { documents } from "../src/db/documents.js";
import { startWorkers, type Workers } from "../src/jobs/start-workers.js";
import { createHarness, describeDrivers, type Harness } from "../test/support/harness.js";
import { emitBody, emitter } from "../test/support/emission.js";
import { http, loadBody, setUpEmitters, startCluster, type Cluster } from "./support/cluster.js";

const PER_MODE = 8;
const MODES: FaultMode[] = ["down", "http500", "html", "timeout"];

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

describeDrivers("SII outages: documents wait PENDIENTE and recover on their own, never sent twice", (driver) => {
  let h: Harness;
  let sandbox: Sandbox;
  let workers: Workers;
  let key: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_SANDBOX_STEP_MS: "0", EMIT_BUDGET_MS: "1200" });
    const t = await emitter(h, { tipos: [33, 39], cantidad: 500 });
    key = t.key.key;
    const gateway = await h.deps.sii();
    if (!gateway.sandbox) throw new Error("no in-process sandbox");
    sandbox = gateway.sandbox;
    workers = await startWorkers(h.deps, h.database.jobStore, { intervalsMs: { dispatch: 150, poll: 150, webhooks: 1000, checks: 3_600_000 } });
  }, 120_000);
  afterAll(async () => {
    sandbox?.faults.clear();
    await workers?.stop();
    await h?.close();
  }, 60_000);

  for (const mode of MODES) {
    test(`${mode}: ${PER_MODE} emissions → 202 PENDIENTE, still PENDIENTE during the outage, ACEPTADO after, one upload per folio`, async () => {
      sandbox.faults.set({ mode });
      try {
        await outage(mode);
      } finally {
        sandbox.faults.clear();
      }
    }, 120_000);
  }

  async function outage(mode: FaultMode): Promise<void> {
    {
      const ids: string[] = [];
      const answers = await Promise.all(Array.from({ length: PER_MODE }, (_, i) => h.call("POST", "/v1/dte/emit", { key, body: emitBody(i % 2 === 0 ? 33 : 39) })));
      for (const res of answers) {
        expect({ status: res.status, estado: res.json.data?.estado }).toEqual({ status: 202, estado: "PENDIENTE" });
        ids.push(res.json.data.id);
      }
      // Make them due now, so that the dispatcher really works against the dead SII during the outage.
      // The dispatcher reschedules what it tried (back-off): every document was tried and failed meanwhile.
      const dueAt = new Date();
      await h.deps.db.update(documents).set({ nextCheckAt: dueAt }).where(inArray(documents.id, ids));
      await until(`${mode}: every document tried during the outage`, async () => {
        const tried = await h.deps.db.select({ next: documents.nextCheckAt }).from(documents).where(inArray(documents.id, ids));
        return tried.filter((d) => d.next !== null && d.next.getTime() > dueAt.getTime()).length === ids.length;
      }, 30_000);
      const during = await h.deps.db.select({ estado: documents.estado }).from(documents).where(inArray(documents.id, ids));
      expect(during.every((d) => d.estado === "PENDIENTE")).toBe(true);
      sandbox.faults.clear();
      await until(`${mode}: all ACEPTADO`, async () => {
        const rows = await h.deps.db.select({ estado: documents.estado }).from(documents).where(inArray(documents.id, ids));
        return rows.every((r) => r.estado === "ACEPTADO");
      }, 60_000);
      const rows = await h.deps.db.select({ tipo: documents.tipo, folio: documents.folio }).from(documents).where(inArray(documents.id, ids));
      const received = new Map<string, number>();
      for (const envelope of sandbox.envelopes()) for (const d of envelope.documents) received.set(`${d.tipo}/${d.folio}`, (received.get(`${d.tipo}/${d.folio}`) ?? 0) + 1);
      expect(rows.map((r) => `${r.tipo}/${r.folio}: ${received.get(`${r.tipo}/${r.folio}`) ?? 0}`)).toEqual(rows.map((r) => `${r.tipo}/${r.folio}: 1`));
      expect((await h.call("GET", "/v1/health")).status).toBe(200);
    }
  }

  test("no folio was ever received twice over the whole run", async () => {
    const seen = new Map<string, number>();
    for (const envelope of sandbox.envelopes()) for (const d of envelope.documents) seen.set(`${d.tipo}/${d.folio}`, (seen.get(`${d.tipo}/${d.folio}`) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
    expect(seen.size).toBe(MODES.length * PER_MODE);
  });
});

const BASE = process.env.DATABASE_URL;
if (!BASE) {
  describe("SII sandbox process stopped and restarted [postgres]", () => {
    test.skip("skipped: DATABASE_URL is not set", () => {});
  });
} else {
  describe("SII sandbox process stopped and restarted [postgres]", () => {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await startCluster({ servers: 1, baseUrl: BASE, env: { EMIT_BUDGET_MS: "1500" } });
    }, 180_000);
    afterAll(() => cluster?.close(), 60_000);

    test("emissions while the SII process is down answer 202; after it is back every document is sent by the workers", async () => {
      const base = cluster.servers[0]?.url ?? "";
      const { emitters } = await setUpEmitters(base, 2, [33, 39], 200);
      const first = await Promise.all(emitters.map((e, i) => http(base, "POST", "/v1/dte/emit", { key: e.key, body: loadBody(33, i) })));
      // Warm-up while the SII is up. Each is the first upload of its business (seed, token, then the envelope) and may
      // outlast the 1.5 s budget on a busy machine: 202 is then as right as 201 (the workers send it; checked below).
      for (const r of first) expect([201, 202]).toContain(r.status);
      await cluster.sandbox.stop("SIGKILL");
      const during = await Promise.all(Array.from({ length: 12 }, (_, i) => http(base, "POST", "/v1/dte/emit", { key: emitters[i % 2]?.key, body: loadBody(i % 3 === 0 ? 39 : 33, i) })));
      expect(during.map((r) => r.status)).toEqual(Array(12).fill(202));
      expect((await http(base, "GET", "/v1/health")).status).toBe(200);
      await Bun.sleep(3000);
      await cluster.restartSandbox();
      await until("every document ENVIADO or final", async () => {
        const [row] = await cluster.sql`select count(*)::int as n from documents where estado = 'PENDIENTE'`;
        return Number(row?.n) === 0;
      }, 90_000);
      const states = await cluster.sql`select estado, count(*)::int as n from documents group by 1`;
      expect(states.filter((s) => s.estado === "RECHAZADO")).toHaveLength(0);
      const [total] = await cluster.sql`select count(*)::int as n from documents`;
      expect(Number(total?.n)).toBe(14);
    }, 180_000);
  });
}
