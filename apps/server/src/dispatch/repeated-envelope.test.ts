import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { documents, envelopes } from "../db/documents.js";
import { readStoredEnvelope } from "../db/stored-envelope.js";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";
import { refreshDocumentStatus } from "./refresh-document-status.js";
import { openSiiSession } from "./sii-session.js";

/**
 * The SII answers `RPT` (envío repetido) to a file it already received: nothing of the repeat is registered, and the
 * documents in it stand as the first upload left them. Here the document's envelope is uploaded a second time,
 * byte for byte, and the document is pointed at the repeat's track id — as when the only answer read was the
 * repeat's — so the refresh meets RPT and must ask the SII about the document itself.
 */
describeDrivers("a repeated envelope (RPT) is not a verdict on its documents", (driver) => {
  let h: Harness;
  let key: string;
  let businessId: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    const t = await emitter(h, { tipos: [33] });
    key = t.key.key;
    businessId = t.business.id;
  }, 60_000);
  afterAll(async () => h?.close());

  /** Emits a 33, uploads its envelope again and points the document at the repeat's track id. */
  const emitAndRepeat = async (razonSocial: string) => {
    const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33, { receptor: { ...RECEPTOR, razon_social: razonSocial } }) });
    expect(res.status).toBe(201);
    const id: string = res.json.data.id;
    const [doc] = await h.deps.db.select().from(documents).where(eq(documents.id, id));
    const [envelope] = await h.deps.db.select().from(envelopes).where(eq(envelopes.id, doc!.envelopeId!));
    const session = await openSiiSession(h.deps, businessId, "test");
    const repeat = await session.client.uploadEnvelope({ kind: "EnvioDTE", xml: await readStoredEnvelope(h.deps.db, envelope!), rutEmisor: "76192083-9" });
    expect(repeat.trackId).not.toBe(doc!.trackId);
    await h.deps.db.update(documents).set({ trackId: repeat.trackId }).where(eq(documents.id, id));
    return id;
  };

  test("the first upload accepted the document: ACEPTADO (QueryEstDte DOK), the repeat named in /status", async () => {
    const id = await emitAndRepeat("Cliente");
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    const status = await h.call("GET", `/v1/dte/${id}/status`, { key });
    expect(status.json.data.sii.estado_envio).toBe("RPT");
    expect(status.json.data.sii.errores[0]).toMatchObject({ codigo: "DOK" });
    expect(status.json.data.sii.errores[0].descripcion).toContain("RPT");
    expect(status.json.data.historial.at(-1).detalle).toContain("envío anterior");
  }, 30_000);

  test("the first upload rejected the document: RECHAZADO, with RPT and its hint as the reason", async () => {
    const id = await emitAndRepeat("Cliente [sandbox:rechazo]");
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("RECHAZADO");
    const status = await h.call("GET", `/v1/dte/${id}/status`, { key });
    expect(status.json.data.sii.errores[0]).toMatchObject({ codigo: "RPT", ayuda: expect.stringContaining("envío original") });
    // … and what the SII says of the document itself, with where the first upload's reason is.
    expect(status.json.data.sii.errores[1]).toMatchObject({ codigo: "FAU", ayuda: expect.stringContaining("correo de resultado") });
  }, 30_000);
});
