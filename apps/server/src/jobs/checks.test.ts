import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { businesses, type CertificateSummary } from "../db/businesses.js";
import { events, webhookDeliveries } from "../db/events.js";
import { numerations } from "../db/numerations.js";
import { newId } from "../ids.js";
import { chileToday } from "../time.js";
import { createBusiness, signUp } from "../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { isLow } from "./check-numerations.js";
import { daysBetween } from "./days.js";
import { runChecks } from "./run-checks.js";

const DAY = 86_400_000;
const dateIn = (days: number) => chileToday(new Date(Date.now() + days * DAY));

test("low: fewer than 10 % or fewer than 50 folios left", () => {
  expect(isLow({ desde: 1, hasta: 1000, siguiente: 900 })).toBe(false); // 101 left
  expect(isLow({ desde: 1, hasta: 1000, siguiente: 902 })).toBe(true); // 99 < 100
  expect(isLow({ desde: 1, hasta: 100, siguiente: 51 })).toBe(false); // 50 left
  expect(isLow({ desde: 1, hasta: 100, siguiente: 52 })).toBe(true); // 49 left
  expect(isLow({ desde: 1, hasta: 10, siguiente: 11 })).toBe(true); // exhausted
  expect(daysBetween("2026-02-27", "2026-03-01")).toBe(2);
});

describeDrivers("periodic checks", (driver) => {
  let h: Harness;
  let businessId: string;
  beforeAll(async () => {
    h = await createHarness(driver, { WEBHOOK_ALLOW_PRIVATE: "true" });
    const user = await signUp(h);
    businessId = (await createBusiness(h, user.token, { webhook_url: "http://127.0.0.1:9/hook" })).id;
  }, 60_000);
  afterAll(async () => {
    await h.close();
  }, 60_000);

  const range = async (tipo: number, desde: number, hasta: number, siguiente: number, venceEl: string | null) => {
    const id = newId("numeration");
    await h.deps.db.insert(numerations).values({ id, businessId, environment: "test", tipo, desde, hasta, siguiente, fechaAutorizacion: "2026-01-01", venceEl, idk: 100, cafXml: "<CAF/>", cafFileEnc: "x" });
    return id;
  };
  const eventsOf = (kind: string) => h.deps.db.select().from(events).where(and(eq(events.businessId, businessId), eq(events.event, kind)));

  test("numeration.low and numeration.expiring: once per range, with a delivery queued", async () => {
    const low = await range(33, 1, 100, 60, null); // 41 left
    await range(34, 1, 1000, 100, null); // plenty
    const expiring = await range(56, 1, 1000, 1, dateIn(10));
    await range(61, 1, 1000, 1, dateIn(20)); // not yet
    await range(39, 1, 100, 99, dateIn(-1)); // expired: no warnings at all
    expect(await runChecks(h.deps)).toBe(2);
    const lows = await eventsOf("numeration.low");
    expect(lows.map((e) => e.data)).toEqual([
      { numeration_id: low, tipo: 33, desde: 1, hasta: 100, siguiente_folio: 60, disponibles: 41, vence_el: null, threshold: "low" },
    ]);
    const exp = await eventsOf("numeration.expiring");
    expect(exp).toHaveLength(1);
    expect(exp[0]!.data).toMatchObject({ numeration_id: expiring, tipo: 56, vence_el: dateIn(10), dias_restantes: 10, disponibles: 1000 });
    const [delivery] = await h.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, lows[0]!.id));
    expect(delivery).toMatchObject({ attempt: 1, state: "pending" });
    // Later rounds (more folios used, a day closer): nothing new.
    await h.deps.db.update(numerations).set({ siguiente: 90 }).where(eq(numerations.id, low));
    expect(await runChecks(h.deps)).toBe(0);
    expect(await eventsOf("numeration.low")).toHaveLength(1);
  });

  test("certificate.expiring: 30 days before, once per certificate", async () => {
    const summary = (days: number, fingerprint: string): CertificateSummary => ({
      rut_titular: "11111111-1", nombre_titular: "ANA PEREZ", emisor: "CN=Test", serial: "01", valid_from: "2025-01-01T00:00:00.000Z",
      valid_to: new Date(Date.now() + days * DAY).toISOString(), fingerprint_sha256: fingerprint,
    });
    await h.deps.db.update(businesses).set({ certificate: summary(40, "aa") }).where(eq(businesses.id, businessId));
    expect(await runChecks(h.deps)).toBe(0);
    await h.deps.db.update(businesses).set({ certificate: summary(29.5, "aa") }).where(eq(businesses.id, businessId));
    expect(await runChecks(h.deps)).toBe(1);
    expect(await runChecks(h.deps)).toBe(0);
    const [event] = await eventsOf("certificate.expiring");
    expect(event).toMatchObject({ environment: "test", data: { fingerprint_sha256: "aa", dias_restantes: 30, rut_titular: "11111111-1", serial: "01" } });
    // A renewed certificate that is itself close to expiry warns again.
    await h.deps.db.update(businesses).set({ certificate: summary(5, "bb") }).where(eq(businesses.id, businessId));
    expect(await runChecks(h.deps)).toBe(1);
  });
});
