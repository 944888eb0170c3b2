import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { events } from "../db/events.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter } from "../../test/support/emission.js";
import { startWorkers, type Workers } from "./start-workers.js";

describeDrivers("numeration.low is recorded when an emission leaves a range low, not at the next hourly check", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  let workers: Workers;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await emitter(h, { tipos: [39], cantidad: 60 }); // low once fewer than 50 are left: after the 11th folio
    workers = await startWorkers(h.deps, h.database.jobStore, { only: ["checks"], intervalsMs: { checks: 3_600_000 } });
  }, 60_000);
  afterAll(async () => {
    await workers?.stop();
    await h?.close();
  }, 60_000);

  const lowEvents = () => h.deps.db.select().from(events).where(and(eq(events.businessId, t.business.id), eq(events.event, "numeration.low")));
  const emit = async () => expect((await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(39) })).status).toBe(201);

  test("ten folios of sixty: no event; the eleventh: the event within seconds", async () => {
    for (let i = 0; i < 10; i++) await emit();
    await Bun.sleep(300);
    expect(await lowEvents()).toHaveLength(0);
    await emit();
    let found = await lowEvents();
    for (let i = 0; i < 100 && found.length === 0; i++) {
      await Bun.sleep(50);
      found = await lowEvents();
    }
    expect(found).toHaveLength(1);
    expect(found[0]?.data).toMatchObject({ tipo: 39, desde: 1, hasta: 60, siguiente_folio: 12, disponibles: 49 });
  }, 30_000);
});
