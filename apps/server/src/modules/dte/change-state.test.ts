import { afterAll, beforeAll, expect, test } from "bun:test";
import { asc, eq, inArray } from "drizzle-orm";
import { createBusiness, signUp } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { seedDocument } from "../../../test/support/webhooks.js";
import { documentHistory, documents } from "../../db/documents.js";
import { events, webhookDeliveries } from "../../db/events.js";
import { changeDocumentState, changeDocumentStates } from "./change-state.js";

describeDrivers("changing the state of many documents at once", (driver) => {
  let h: Harness;
  let folio = 0;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => {
    await h?.close();
  });

  async function seeded(webhookUrl: string | null, count: number) {
    const user = await signUp(h);
    const business = await createBusiness(h, user.token, webhookUrl ? { webhook_url: webhookUrl } : {});
    const docs = [];
    for (let i = 0; i < count; i++) docs.push(await seedDocument(h, business.id, { folio: (folio += 200) }));
    return { business, docs };
  }

  test("every document changes with its own history row, event and first delivery; one changed first by someone else is left out", async () => {
    const { business, docs } = await seeded("https://hooks.example.com/timbre", 4);
    // Another worker moved the last one already.
    expect(await h.deps.db.transaction((tx) => changeDocumentState(tx, { document: docs[3]!, to: "ENVIADO", at: new Date() }))).toBe(true);
    const at = new Date("2026-11-22T12:00:00.000Z");
    const applied = await h.deps.db.transaction((tx) =>
      changeDocumentStates(tx, { documents: docs, to: "ENVIADO", at, detalle: "recibido, track id 42", set: { trackId: "42", checkAttempts: 0 } }),
    );
    expect([...applied].sort()).toEqual(docs.slice(0, 3).map((d) => d.id).sort());
    const ids = docs.map((d) => d.id);
    const rows = await h.deps.db.select().from(documents).where(inArray(documents.id, ids));
    for (const row of rows) expect(row.estado).toBe("ENVIADO");
    expect(rows.filter((r) => r.trackId === "42").map((r) => r.id).sort()).toEqual(docs.slice(0, 3).map((d) => d.id).sort());
    const history = await h.deps.db.select().from(documentHistory).where(eq(documentHistory.detalle, "recibido, track id 42")).orderBy(asc(documentHistory.documentId));
    expect(history.map((r) => [r.documentId, r.estado, r.at.toISOString()])).toEqual(
      docs.slice(0, 3).map((d) => [d.id, "ENVIADO", at.toISOString()]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
    const evs = await h.deps.db.select().from(events).where(eq(events.businessId, business.id));
    const batch = evs.filter((e) => e.createdAt.getTime() === at.getTime());
    expect(batch).toHaveLength(3);
    for (const e of batch) {
      const doc = docs.find((d) => d.id === e.data.dte_id)!;
      expect(e.data).toEqual({ dte_id: doc.id, tipo: 33, folio: doc.folio, old_status: "PENDIENTE", new_status: "ENVIADO", timestamp: at.toISOString() });
      const deliveries = await h.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, e.id));
      expect(deliveries.map((d) => [d.attempt, d.state, d.dueAt.toISOString()])).toEqual([[1, "pending", at.toISOString()]]);
    }
  });

  test("no webhook URL: events without deliveries; documents in different states each move from their own", async () => {
    const { business, docs } = await seeded(null, 2);
    await h.deps.db.transaction((tx) => changeDocumentState(tx, { document: docs[1]!, to: "ENVIADO", at: new Date() }));
    const moved = { ...docs[1]!, estado: "ENVIADO" as const };
    const applied = await h.deps.db.transaction((tx) => changeDocumentStates(tx, { documents: [docs[0]!, moved], to: "RECHAZADO", at: new Date(), set: { nextCheckAt: null } }));
    expect(applied.size).toBe(2);
    const evs = await h.deps.db.select().from(events).where(eq(events.businessId, business.id));
    expect(evs.map((e) => `${e.data.old_status}→${e.data.new_status}`).sort()).toEqual(["ENVIADO→RECHAZADO", "PENDIENTE→ENVIADO", "PENDIENTE→RECHAZADO"]);
    const deliveries = await h.deps.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, evs.map((e) => e.id)));
    expect(deliveries).toEqual([]);
  });

  test("a transition the lifecycle forbids throws before anything is written", async () => {
    const { docs } = await seeded(null, 2);
    const accepted = { ...docs[1]!, estado: "ACEPTADO" as const };
    await expect(h.deps.db.transaction((tx) => changeDocumentStates(tx, { documents: [docs[0]!, accepted], to: "ENVIADO", at: new Date() }))).rejects.toThrow();
    const rows = await h.deps.db.select().from(documents).where(inArray(documents.id, docs.map((d) => d.id)));
    for (const row of rows) expect(row.estado).toBe("PENDIENTE");
  });
});
