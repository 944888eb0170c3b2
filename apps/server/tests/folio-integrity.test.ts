/**
 * Folio integrity under concurrency and a crash: an external sandbox SII, two server processes on one PostgreSQL,
 * concurrent emitters across several businesses alternating between the processes; one process is SIGKILLed in
 * the middle of the load and restarted. Clients retry a failed connection on the other process with the same
 * Idempotency-Key. Afterwards: no folio used twice, every folio handed out is a stored document or recorded as
 * unused (no gaps), every answered document is stored with the folio it was answered with, every document
 * reaches ENVIADO or a final state by the workers, every stored signed XML verifies, and the requests whose
 * process died holding their Idempotency-Key replay their document instead of taking a second folio. FOLIO_LOAD (default 200)
 * sets the number of emissions; the bench runs thousands.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verifyDte } from "@timbre/core/signature";
import { http, loadBody, setUpEmitters, startCluster, type Cluster, type Emitter } from "./support/cluster.js";

const BASE = process.env.DATABASE_URL;
const TOTAL = Number(process.env.FOLIO_LOAD ?? "200");
const CONCURRENCY = Number(process.env.FOLIO_CONCURRENCY ?? "40");
const BUSINESSES = 4;
const TIPOS = [33, 39];

interface Outcome {
  idem: string;
  emitter: Emitter;
  tipo: number;
  status: number;
  attempts: number;
  id?: string;
  folio?: number;
}

if (!BASE) {
  describe("folio integrity under concurrency and a crash [postgres]", () => {
    test.skip("skipped: DATABASE_URL is not set", () => {});
  });
} else {
  describe("folio integrity under concurrency and a crash [postgres]", () => {
    let cluster: Cluster;
    let emitters: Emitter[];
    const outcomes: Outcome[] = [];
    let killedAt = -1;

    beforeAll(async () => {
      cluster = await startCluster({ servers: 2, baseUrl: BASE, env: { EMIT_BUDGET_MS: "5000" } });
      ({ emitters } = await setUpEmitters(cluster.servers[0]?.url ?? "", BUSINESSES, TIPOS, Math.max(1000, TOTAL)));
    }, 180_000);

    afterAll(async () => {
      await cluster?.close();
    }, 60_000);

    test(`${TOTAL} concurrent emissions over 2 processes, one SIGKILLed mid-load and restarted`, async () => {
      let next = 0;
      let done = 0;
      let restarting: Promise<unknown> | null = null;
      const emitOne = async (i: number): Promise<Outcome> => {
        const emitter = emitters[i % emitters.length] as Emitter;
        const tipo = TIPOS[Math.floor(i / emitters.length) % TIPOS.length] ?? 33;
        const idem = `load-${i}`;
        let res: Awaited<ReturnType<typeof http>> = { status: 0, json: null, ms: 0 };
        let attempts = 0;
        for (let server = i % 2; attempts < 8; server = 1 - server) {
          attempts++;
          const base = cluster.servers[server]?.url ?? "";
          res = await http(base, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(tipo, i), headers: { "idempotency-key": idem }, timeoutMs: 30_000 });
          // Retried like the SDK does: no answer (the process was killed), or the key still held by a request in
          // progress (409 IDEMPOTENCY_IN_PROGRESS; the killed process's keys are released as soon as its database
          // sessions end, `liveness.ts`, and no longer after 5 minutes).
          const held = res.status === 409 && res.json?.error?.code === "IDEMPOTENCY_IN_PROGRESS";
          if (res.status !== 0 && !held) break;
          await Bun.sleep(held ? 250 : 100);
        }
        return { idem, emitter, tipo, status: res.status, attempts, id: res.json?.data?.id, folio: res.json?.data?.folio };
      };
      const worker = async () => {
        while (next < TOTAL) {
          const i = next++;
          outcomes.push(await emitOne(i));
          done++;
          if (killedAt < 0 && done >= TOTAL * 0.4) {
            killedAt = done;
            await cluster.kill(0);
            restarting = Bun.sleep(500).then(() => cluster.restart(0));
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      await restarting;
      const byStatus = new Map<number, number>();
      for (const o of outcomes) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
      console.log(`emissions: ${[...byStatus].map(([s, n]) => `${s}×${n}`).join(" ")}; retried on the other process: ${outcomes.filter((o) => o.attempts > 1).length}; killed after ${killedAt}`);
      expect(killedAt).toBeGreaterThan(0);
      // Every logical request is answered with its document, those the killed process held included.
      const unexpected = outcomes.filter((o) => ![201, 202].includes(o.status));
      expect(unexpected.map((o) => `${o.idem}: ${o.status}`)).toEqual([]);
    }, 300_000);

    test("no folio twice, no gap: every folio handed out is a stored document or an unused folio", async () => {
      const duplicates = await cluster.sql`select business_id, tipo, folio, count(*)::int as n from documents group by 1, 2, 3 having count(*) > 1`;
      expect([...duplicates]).toEqual([]);
      const ranges = await cluster.sql`select id, business_id, tipo, desde, siguiente from numerations`;
      const problems: string[] = [];
      for (const r of ranges) {
        const used = await cluster.sql`select folio from documents where numeration_id = ${r.id} union all select folio from unused_folios where numeration_id = ${r.id} order by folio`;
        const folios = used.map((u) => Number(u.folio));
        const expected = Array.from({ length: Number(r.siguiente) - Number(r.desde) }, (_, k) => Number(r.desde) + k);
        if (JSON.stringify(folios) !== JSON.stringify(expected)) problems.push(`${r.business_id} tipo ${r.tipo}: handed out ${expected.length}, accounted ${folios.length}`);
      }
      expect(problems).toEqual([]);
      const [count] = await cluster.sql`select count(*)::int as n from documents`;
      const answered = outcomes.filter((o) => o.id !== undefined);
      console.log(`documents stored: ${count?.n}; answered with a folio: ${answered.length}; 409 in progress: ${outcomes.filter((o) => o.status === 409).length}`);
      // Every answered document is stored with the folio it was answered with.
      const rows = await cluster.sql`select id, folio, tipo, business_id from documents`;
      const byId = new Map(rows.map((r) => [r.id as string, r]));
      for (const o of answered) {
        const row = byId.get(o.id ?? "");
        expect({ id: o.id, folio: row?.folio, tipo: row?.tipo, business: row?.business_id }).toEqual({ id: o.id, folio: o.folio, tipo: o.tipo, business: o.emitter.businessId });
      }
      // At most one document per logical request that was never answered (its process died holding the key).
      expect(Number(count?.n)).toBeLessThanOrEqual(answered.length + outcomes.filter((o) => o.status === 409).length);
      expect(Number(count?.n)).toBeGreaterThanOrEqual(answered.length);
    }, 60_000);

    test("every stored document reaches ENVIADO or a final state by the workers; every signed XML verifies", async () => {
      const deadline = Date.now() + 120_000;
      let pending = -1;
      while (Date.now() < deadline) {
        const [row] = await cluster.sql`select count(*)::int as n from documents where estado = 'PENDIENTE'`;
        pending = Number(row?.n);
        if (pending === 0) break;
        await Bun.sleep(1000);
      }
      const states = await cluster.sql`select estado, count(*)::int as n from documents group by 1 order by 1`;
      console.log(`states: ${states.map((s) => `${s.estado}×${s.n}`).join(" ")}`);
      // The sandbox trusts the servers' CAF authority (serve.ts --trust-pem): nothing is refused.
      expect(states.filter((s) => s.estado === "RECHAZADO")).toEqual([]);
      expect(pending).toBe(0);
      const bad: string[] = [];
      const docs = await cluster.sql`select id, xml from documents`;
      for (const doc of docs) {
        const result = verifyDte(new Uint8Array(doc.xml as Buffer));
        if (!result.valid) bad.push(`${doc.id}: ${result.errors.join("; ")}`);
      }
      expect(bad).toEqual([]);
      // The restarted process serves.
      expect((await http(cluster.servers[0]?.url ?? "", "GET", "/v1/health")).status).toBe(200);
    }, 180_000);

    // Found here first: the key of a request whose process died after the document's commit stayed "in progress",
    // and after the abandonment window (5 min) the retry took a second folio. Since ed92e77 the key is linked to the
    // document in the emission transaction and the retry replays it; since the process liveness check the retry
    // does not wait for the window. Each logical request has exactly one document: replayed when the dead process
    // had stored it, emitted by the retry when it died before its transaction committed.
    test("a retry of a request the killed process held replays its document (no second folio), without waiting", async () => {
      const answered = outcomes.filter((o) => o.id !== undefined);
      expect(answered.length).toBe(TOTAL);
      expect(new Set(answered.map((o) => o.id)).size).toBe(TOTAL);
      const [after] = await cluster.sql`select count(*)::int as n from documents`;
      expect(Number(after?.n)).toBe(TOTAL);
      const [held] = await cluster.sql`select count(*)::int as n from idempotency_keys where response_status is null`;
      expect(Number(held?.n)).toBe(0);
    });
  });
}
