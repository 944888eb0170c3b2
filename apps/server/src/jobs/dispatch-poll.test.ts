import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, inArray, sql } from "drizzle-orm";
import { documents, envelopes, type DocumentRow } from "../db/documents.js";
import { rowsOf } from "../db/rows.js";
import type { Deps } from "../deps.js";
import { changeDocumentState } from "../modules/dte/change-state.js";
import { createBusiness, signUp } from "../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { seedDocument } from "../../test/support/webhooks.js";
import { createDispatcher } from "./dispatch-pending.js";
import type { DocumentEngine, ReconcileOutcome } from "./document-engine.js";
import { createStatusPoller } from "./poll-status.js";
import { startWorkers } from "./start-workers.js";

/** A scripted engine recording calls; "submit" moves documents to ENVIADO like the real submitter. */
function fakeEngine(options: { reconcile?: (id: string) => ReconcileOutcome | Promise<ReconcileOutcome>; refresh?: (id: string) => Promise<void> } = {}) {
  const calls: string[] = [];
  const engine: DocumentEngine = {
    async reconcileDocument(_deps, id) {
      calls.push(`reconcile:${id}`);
      return options.reconcile ? options.reconcile(id) : "not_needed";
    },
    async submitDocuments(deps: Deps, ids) {
      for (const id of ids) calls.push(`submit:${id}`);
      await Bun.sleep(20);
      for (const id of ids) {
        const [doc] = await deps.db.select().from(documents).where(eq(documents.id, id));
        if (doc?.estado !== "PENDIENTE") continue;
        await deps.db.transaction((tx) => changeDocumentState(tx, { document: doc, to: "ENVIADO", at: new Date(), set: { trackId: "1", nextCheckAt: new Date(), checkAttempts: 0 } }));
      }
      return [];
    },
    async refreshDocumentStatuses(_deps, ids) {
      for (const id of ids) {
        calls.push(`refresh:${id}`);
        try {
          await options.refresh?.(id);
        } catch {
          /* like the real one: a failing document is left for the poller to release */
        }
      }
      return new Set<string>();
    },
    nextCheckAt: (_deps, attempts, from = new Date()) => new Date(from.getTime() + 1000 * attempts),
  };
  return { engine, calls };
}

async function rows(h: Harness, ids: string[]): Promise<DocumentRow[]> {
  return h.deps.db.select().from(documents).where(inArray(documents.id, ids));
}

/** Rounds of a worker's queue that pg-boss has completed. */
async function completedRounds(h: Harness, queue: string): Promise<number> {
  return rowsOf<{ n: number }>(await h.deps.db.execute(sql`select count(*)::int as n from pgboss.job where name = ${queue} and state = 'completed'`))[0]!.n;
}

describeDrivers("dispatcher and status poller", (driver) => {
  let h: Harness;
  let businessId: string;
  let folio = 0;
  beforeAll(async () => {
    h = await createHarness(driver);
    const user = await signUp(h);
    businessId = (await createBusiness(h, user.token)).id;
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  const due = async (estado: "PENDIENTE" | "ENVIADO", n = 1) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const doc = await seedDocument(h, businessId, { folio: ++folio, estado });
      await h.deps.db.update(documents).set({ nextCheckAt: new Date(Date.now() - 1000) }).where(eq(documents.id, doc.id));
      ids.push(doc.id);
    }
    return ids;
  };
  const clearDue = () => h.deps.db.update(documents).set({ nextCheckAt: new Date(Date.now() + 3_600_000) });

  test("reconcile first, then submit; a document the SII may have ('wait', 'unavailable', error) is not sent", async () => {
    await clearDue();
    const [ok, wait, unavailable, failing] = await due("PENDIENTE", 4);
    const { engine, calls } = fakeEngine({
      reconcile: (id) => {
        if (id === failing) throw new Error("SII down");
        return id === wait ? "wait" : id === unavailable ? "unavailable" : "not_received";
      },
    });
    await createDispatcher(h.deps, engine).tick();
    expect(calls.filter((c) => c.startsWith("submit:"))).toEqual([`submit:${ok}`]);
    expect(calls.indexOf(`reconcile:${ok}`)).toBeLessThan(calls.indexOf(`submit:${ok}`));
    const after = new Map((await rows(h, [ok!, wait!, unavailable!, failing!])).map((r) => [r.id, r]));
    expect(after.get(ok!)?.estado).toBe("ENVIADO");
    for (const id of [wait!, unavailable!, failing!]) {
      const r = after.get(id)!;
      expect(r.estado).toBe("PENDIENTE");
      expect(r.checkAttempts).toBe(1); // rescheduled by the engine's back-off
      expect(r.nextCheckAt!.getTime()).toBeGreaterThan(Date.now() + 500);
      expect(r.nextCheckAt!.getTime()).toBeLessThan(Date.now() + 1500);
    }
  });

  test("documents not yet due, or fresh and unscheduled, are left alone", async () => {
    await clearDue();
    const later = await seedDocument(h, businessId, { folio: ++folio });
    await h.deps.db.update(documents).set({ nextCheckAt: new Date(Date.now() + 60_000) }).where(eq(documents.id, later.id));
    await seedDocument(h, businessId, { folio: ++folio }); // next_check_at null, just created
    const { engine, calls } = fakeEngine();
    expect(await createDispatcher(h.deps, engine).tick()).toBe(false);
    expect(calls).toEqual([]);
  });

  test("two dispatchers at once never submit the same document twice", async () => {
    await clearDue();
    const ids = await due("PENDIENTE", 12);
    const { engine, calls } = fakeEngine();
    const a = createDispatcher(h.deps, engine, { batch: 3 });
    const b = createDispatcher(h.deps, engine, { batch: 3 });
    const run = async (d: typeof a) => {
      while (await d.tick());
    };
    await Promise.all([run(a), run(b), run(a), run(b)]);
    const submitted = calls.filter((c) => c.startsWith("submit:")).map((c) => c.slice(7));
    expect(submitted.sort()).toEqual([...ids].sort());
    expect((await rows(h, ids)).every((r) => r.estado === "ENVIADO")).toBe(true);
  });

  test("the poller asks the SII for due ENVIADO documents and reschedules when the refresh left them", async () => {
    await clearDue();
    const [a, b] = await due("ENVIADO", 2);
    const { engine, calls } = fakeEngine({
      refresh: async (id) => {
        if (id === b) throw new Error("SII down");
        const [doc] = await h.deps.db.select().from(documents).where(eq(documents.id, id));
        await h.deps.db.transaction((tx) => changeDocumentState(tx, { document: doc!, to: "ACEPTADO", at: new Date(), set: { nextCheckAt: null } }));
      },
    });
    const poller = createStatusPoller(h.deps, engine);
    await poller.tick();
    expect(calls.sort()).toEqual([`refresh:${a}`, `refresh:${b}`].sort());
    const after = new Map((await rows(h, [a!, b!])).map((r) => [r.id, r]));
    expect(after.get(a!)).toMatchObject({ estado: "ACEPTADO", nextCheckAt: null });
    expect(after.get(b!)).toMatchObject({ estado: "ENVIADO", checkAttempts: 1 });
    await poller.tick();
    expect(calls).toHaveLength(2); // b is not due again yet
  });

  test("the poller claims through envelopes: no lease written on their documents, another poller's envelope left alone, its lease lifted after", async () => {
    await clearDue();
    const [a1, a2, b1, loose] = await due("ENVIADO", 4);
    const envelope = async (id: string, docs: string[], pollLeaseUntil: Date | null) => {
      await h.deps.db.insert(envelopes).values({ id, businessId, environment: "test", kind: "EnvioDTE", xml: new Uint8Array([60, 47, 62]), status: "uploaded", trackId: id, pollLeaseUntil });
      await h.deps.db.update(documents).set({ envelopeId: id, trackId: id }).where(inArray(documents.id, docs));
    };
    const othersLease = new Date(Date.now() + 60_000);
    await envelope(`env_a_${driver}`, [a1!, a2!], null);
    await envelope(`env_b_${driver}`, [b1!], othersLease);
    const before = new Map((await rows(h, [a1!, a2!, b1!, loose!])).map((r) => [r.id, r.nextCheckAt?.getTime()]));
    const seenDuring = new Map<string, number | undefined>();
    const { engine, calls } = fakeEngine({
      refresh: async (id) => {
        const [doc] = await rows(h, [id]);
        seenDuring.set(id, doc?.nextCheckAt?.getTime());
      },
    });
    await createStatusPoller(h.deps, engine).tick();
    expect(calls.sort()).toEqual([`refresh:${a1}`, `refresh:${a2}`, `refresh:${loose}`].sort());
    // Documents in an envelope keep their next_check_at while they are asked about; the one in none carries a lease.
    expect(seenDuring.get(a1!)).toBe(before.get(a1!));
    expect(seenDuring.get(a2!)).toBe(before.get(a2!));
    expect(seenDuring.get(loose!)).toBeGreaterThan(Date.now() + 60_000);
    const leases = new Map((await h.deps.db.select({ id: envelopes.id, lease: envelopes.pollLeaseUntil }).from(envelopes).where(inArray(envelopes.id, [`env_a_${driver}`, `env_b_${driver}`]))).map((e) => [e.id, e.lease?.getTime() ?? null]));
    expect(leases.get(`env_a_${driver}`)).toBeNull();
    expect(leases.get(`env_b_${driver}`)).toBe(othersLease.getTime());
    // Not settled by the refresh: rescheduled with the attempt counted; the other poller's document untouched.
    const after = new Map((await rows(h, [a1!, a2!, b1!, loose!])).map((r) => [r.id, r]));
    for (const id of [a1!, a2!, loose!]) expect(after.get(id)!.checkAttempts).toBe(1);
    expect(after.get(b1!)!.checkAttempts).toBe(0);
    expect(after.get(b1!)!.nextCheckAt?.getTime()).toBe(before.get(b1!));
  });

  test("startWorkers: loops run, wake() runs a worker at once, stop() ends them", async () => {
    await clearDue();
    const { engine, calls } = fakeEngine();
    const workers = await startWorkers(h.deps, h.database.jobStore, { engine, intervalsMs: { dispatch: 60_000, poll: 60_000, webhooks: 60_000, checks: 60_000 } });
    try {
      // The first round (nothing due) has run once pg-boss has completed its job; a fixed sleep lost that race under load.
      const end0 = Date.now() + 10_000;
      while (!(await completedRounds(h, "timbre-dispatch")) && Date.now() < end0) await Bun.sleep(20);
      expect(await completedRounds(h, "timbre-dispatch")).toBeGreaterThan(0);
      const [id] = await due("PENDIENTE");
      await Bun.sleep(100);
      expect(calls).toEqual([]);
      workers.wake("dispatch");
      const end = Date.now() + 3_000;
      while (!calls.includes(`submit:${id}`) && Date.now() < end) await Bun.sleep(10);
      expect(calls).toContain(`submit:${id}`);
    } finally {
      await workers.stop();
    }
    const [id2] = await due("PENDIENTE");
    await Bun.sleep(150);
    expect(calls.some((c) => c.includes(id2!))).toBe(false);
  });
});
