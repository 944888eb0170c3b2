// The registry follow-up worker (API.md §12) against the sandbox SII's registry, over real HTTP on loopback: B issues
// facturas to A, A imports them; a decision A takes directly at the registry (not through Timbre) shows up with
// `origen: "sii"`, `received.deadline_near` is raised once 2 days before `plazo_hasta`, and the 8 days passing without
// a decision make it ACEPTADO_TACITO. The server's clock (Deps.now) is moved; the sandbox keeps the real one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { encodeLatin1 } from "@timbre/core";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { receivedDocuments } from "../db/received.js";
import { refreshDocumentStatus } from "../dispatch/refresh-document-status.js";
import { openSiiSession } from "../dispatch/sii-session.js";
import { receiverEnvelopeOf } from "../intercambio/receiver-envelope.js";
import { createRegistryWorker } from "./poll-registry.js";

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeDrivers("registry follow-up worker (API.md §12)", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof emitter>>;
  let b: Awaited<ReturnType<typeof emitter>>;
  let offset = 0;
  const worker = () => createRegistryWorker(h.deps, { pacer: { take: async () => {} } });
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", INBOUND_DOMAIN: "in.timbre.test" }, { now: () => new Date(Date.now() + offset) });
    b = await emitter(h, { rut: B_RUT, tipos: [33] });
    a = await emitter(h, { rut: A_RUT, tipos: [] });
  }, 60_000);
  afterAll(async () => h?.close());

  /** B issues a factura to A, the SII accepts it and A imports its envelope: the received document as A sees it. */
  const received = async () => {
    offset = 0;
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA" } }) });
    const id = res.json.data.id as string;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    const upload = await h.call("POST", "/v1/received", { key: a.key.key, raw: encodeLatin1(await receiverEnvelopeOf(h.deps, id)), headers: { "content-type": "application/xml" } });
    const doc = upload.json.data.results[0].data;
    expect(doc).toMatchObject({ estado: "SIN_RESPUESTA", emisor: { rut: B_RUT } });
    expect(doc.plazo_hasta).not.toBeNull();
    return doc as { id: string; folio: number; plazo_hasta: string };
  };
  const row = async (id: string) => (await h.deps.db.select().from(receivedDocuments).where(eq(receivedDocuments.id, id)))[0]!;
  const eventsOf = async (event: string, id: string) =>
    ((await h.call("GET", `/v1/events?event=${event}&limit=100`, { key: a.key.key })).json.data as Array<{ data: Record<string, unknown> }>).filter((e) => e.data.received_id === id);
  /** Moves the server's clock to `at`. */
  const setClock = (at: number) => {
    offset = at - Date.now();
  };

  test("a decision taken directly at the registry (not through Timbre) shows up at the next check: ACEPTADO, origen sii, received.decided; then no more checks", async () => {
    const doc = await received();
    const first = await row(doc.id);
    expect(first.registryCheckAt!.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: the round leaves it alone.
    await worker().tick();
    expect((await row(doc.id)).updatedAt).toEqual(first.updatedAt);

    const session = await openSiiSession(h.deps, a.business.id, "test");
    expect((await session.client.registerReceiverAction({ rutEmisor: B_RUT, tipo: 33, folio: doc.folio, accion: "ACD" })).codigo).toBe(0);
    setClock(first.registryCheckAt!.getTime() + 1000);
    expect((await worker().tick()).changed).toBe(true);
    const seen = (await h.call("GET", `/v1/received/${doc.id}`, { key: a.key.key })).json.data;
    expect(seen).toMatchObject({ estado: "ACEPTADO", eventos: [{ codigo: "ACD", origen: "sii", rut_responsable: expect.any(String) }] });
    const decided = await eventsOf("received.decided", doc.id);
    expect(decided.map((e) => e.data)).toEqual([{ received_id: doc.id, emisor_rut: B_RUT, tipo: 33, folio: doc.folio, estado: "ACEPTADO", plazo_hasta: doc.plazo_hasta, origen: "sii" }]);
    expect((await row(doc.id)).registryCheckAt).toBeNull();
  }, 60_000);

  test("received.deadline_near once, 2 days before plazo_hasta with no decision; ACEPTADO_TACITO just after the 8 days", async () => {
    const doc = await received();
    const plazo = Date.parse(doc.plazo_hasta);
    // A check before the warning is due is scheduled no later than the moment it is.
    setClock(plazo - 3 * DAY);
    await h.deps.db.update(receivedDocuments).set({ registryCheckAt: new Date(plazo - 3 * DAY) }).where(eq(receivedDocuments.id, doc.id));
    await worker().tick();
    expect(await eventsOf("received.deadline_near", doc.id)).toEqual([]);
    expect((await row(doc.id)).registryCheckAt!.getTime()).toBeLessThanOrEqual(plazo - 2 * DAY);

    setClock(plazo - 2 * DAY + HOUR);
    expect((await worker().tick()).changed).toBe(true);
    const near = await eventsOf("received.deadline_near", doc.id);
    expect(near.map((e) => e.data)).toEqual([{ received_id: doc.id, emisor_rut: B_RUT, tipo: 33, folio: doc.folio, estado: "SIN_RESPUESTA", plazo_hasta: doc.plazo_hasta }]);
    // Checked again inside the window: not raised twice.
    const next = (await row(doc.id)).registryCheckAt!.getTime();
    setClock(next + 1000);
    await worker().tick();
    expect(await eventsOf("received.deadline_near", doc.id)).toHaveLength(1);
    expect((await row(doc.id)).registryCheckAt!.getTime()).toBeLessThanOrEqual(plazo + 60_000);

    // The last check comes just after plazo_hasta.
    setClock(plazo + 2 * 60_000);
    expect((await worker().tick()).changed).toBe(true);
    expect((await h.call("GET", `/v1/received/${doc.id}`, { key: a.key.key })).json.data).toMatchObject({ estado: "ACEPTADO_TACITO", eventos: [] });
    expect((await eventsOf("received.decided", doc.id)).map((e) => e.data)).toEqual([{ received_id: doc.id, emisor_rut: B_RUT, tipo: 33, folio: doc.folio, estado: "ACEPTADO_TACITO", plazo_hasta: doc.plazo_hasta, origen: "sii" }]);
    expect(await eventsOf("received.deadline_near", doc.id)).toHaveLength(1);
    expect((await row(doc.id)).registryCheckAt).toBeNull();
    // A decision after the 8 days is refused.
    const late = await h.call("POST", `/v1/received/${doc.id}/aceptar`, { key: a.key.key, body: {} });
    expect(late.json.error).toMatchObject({ code: "CONFLICT", details: { reason: "deadline_passed" } });
  }, 60_000);
});
