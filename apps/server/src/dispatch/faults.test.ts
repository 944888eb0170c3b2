import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { verifyEnvelope } from "@timbre/core/signature";
import type { Sandbox } from "@timbre/sii";
import { documents, envelopes } from "../db/documents.js";
import { readStoredEnvelope } from "../db/stored-envelope.js";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, emitWhileSiiRefusesAuthentication, RECEPTOR } from "../../test/support/emission.js";
import { expectHeldAtOnce } from "../../test/support/sii-concurrency.js";
import { BUILDING_ABANDONED_MS, reconcileDocument } from "./reconcile-document.js";
import { refreshDocumentStatus } from "./refresh-document-status.js";
import { openSiiSession } from "./sii-session.js";
import { submitDocuments, waitForSubmissions } from "./submit-documents.js";
import { storeForUpload } from "./upload-envelope.js";
import { defaultDocumentEngine } from "../jobs/default-document-engine.js";
import { createDispatcher } from "../jobs/dispatch-pending.js";

describeDrivers("SII unreachable at emission → 202 PENDIENTE, then reconciled and sent once", (driver) => {
  let h: Harness;
  let key: string;
  let businessId: string;
  let sandbox: Sandbox;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", EMIT_BUDGET_MS: "1500" });
    const t = await emitter(h, { tipos: [33, 39] });
    key = t.key.key;
    businessId = t.business.id;
    const gateway = await h.deps.sii();
    if (!gateway.sandbox) throw new Error("no in-process sandbox");
    sandbox = gateway.sandbox;
    // authenticate once, so that faults on the upload path hit the upload itself
    for (const tipo of [33, 39]) expect((await h.call("POST", "/v1/dte/emit", { key, body: emitBody(tipo) })).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    sandbox?.faults.clear();
    await h?.close();
  });

  const envelopeOf = async (id: string) => {
    const [doc] = await h.deps.db.select().from(documents).where(eq(documents.id, id));
    if (!doc?.envelopeId) return null;
    const [env] = await h.deps.db.select().from(envelopes).where(eq(envelopes.id, doc.envelopeId));
    return env ?? null;
  };

  const emitWhileSiiDownBeforeAuthentication = () => emitWhileSiiRefusesAuthentication(h, key, businessId);

  const folios = async () => (await h.deps.db.select({ tipo: documents.tipo, folio: documents.folio }).from(documents)).map((d) => `${d.tipo}/${d.folio}`);

  for (const [mode, tipo, path] of [["timeout", 33, "DTEUpload"], ["http500", 33, "DTEUpload"], ["timeout", 39, "boleta.electronica.envio"]] as const) {
    test(`${mode} on the ${tipo} upload → 202 PENDIENTE (unknown) → reconciled → ENVIADO → ACEPTADO, uploaded once`, async () => {
      const before = sandbox.envelopes().length;
      sandbox.faults.set({ mode, path });
      const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(tipo) });
      expect(res.status).toBe(202);
      await waitForSubmissions(h.deps);
      expect(res.json.data).toMatchObject({ estado: "PENDIENTE", track_id: null });
      const id: string = res.json.data.id;
      expect((await envelopeOf(id))?.status).toBe("unknown");
      expect(sandbox.envelopes().length).toBe(before);
      sandbox.faults.clear();
      const [outcome] = await submitDocuments(h.deps, [id]);
      expect(outcome).toMatchObject({ id, estado: "ENVIADO" });
      // What the outcome says it wrote is what the row holds (emission answers from it without reading back).
      const [stored] = await h.deps.db.select().from(documents).where(eq(documents.id, id));
      expect(outcome!.applied).toEqual({
        estado: stored!.estado,
        trackId: stored!.trackId,
        envelopeId: stored!.envelopeId,
        nextCheckAt: stored!.nextCheckAt,
        checkAttempts: stored!.checkAttempts,
        sii: stored!.sii,
        updatedAt: stored!.updatedAt,
      });
      expect(sandbox.envelopes().length).toBe(before + 1);
      expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
      // nothing left to send: a second submit uploads nothing
      await submitDocuments(h.deps, [id]);
      expect(sandbox.envelopes().length).toBe(before + 1);
      const all = await folios();
      expect(new Set(all).size).toBe(all.length);
    }, 30_000);
  }

  /** A document whose upload went unanswered (202, envelope `unknown`), and a way to give the SII that very envelope. */
  const emitUnanswered = async (tipo: 33 | 39 = 33, razonSocial?: string) => {
    sandbox.faults.set({ mode: "timeout", path: tipo === 39 ? "boleta.electronica.envio" : "DTEUpload" });
    const receptor = razonSocial === undefined ? undefined : tipo === 39 ? { rut: "66666666-6", razon_social: razonSocial } : { ...RECEPTOR, razon_social: razonSocial };
    const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(tipo, receptor ? { receptor } : {}) });
    expect(res.status).toBe(202);
    await waitForSubmissions(h.deps);
    sandbox.faults.clear();
    const id: string = res.json.data.id;
    const envelope = await envelopeOf(id);
    if (!envelope) throw new Error("no envelope");
    expect(envelope.status).toBe("unknown");
    const arrives = async () => {
      const session = await openSiiSession(h.deps, businessId, "test");
      await session.client.uploadEnvelope({ kind: tipo === 39 ? "EnvioBOLETA" : "EnvioDTE", xml: await readStoredEnvelope(h.deps.db, envelope), rutEmisor: "76192083-9" });
    };
    return { id, arrives };
  };

  // A boleta is asked about by the boleta REST API's one-boleta status (QueryEstDte is for DTEs).
  for (const tipo of [33, 39] as const) test(`an upload of a ${tipo} that arrived although its answer was lost is reconciled, not re-sent`, async () => {
    const { id, arrives } = await emitUnanswered(tipo);
    await arrives(); // the SII got those very bytes (e.g. the answer was lost on the way back)
    const before = sandbox.envelopes().length;
    expect(await reconcileDocument(h.deps, id)).toBe("received");
    await submitDocuments(h.deps, [id]);
    expect(sandbox.envelopes().length).toBe(before);
    const status = await h.call("GET", `/v1/dte/${id}/status?refresh=true`, { key });
    expect(status.json.data.estado).toBe("ACEPTADO");
    expect(status.json.data.historial.map((e: { estado: string }) => e.estado)).toEqual(["PENDIENTE", "ENVIADO", "ACEPTADO"]);
  }, 30_000);

  // The SII received the file but answered a STATUS without a TRACKID: 99 ("envío ya recibido"), or one the manual
  // does not list. Only the "retry" statuses (2, 3, 5, 9) say nothing arrived; anything else is reconciled.
  for (const status of ["99", "4"]) test(`an upload answered STATUS ${status} without a TRACKID is \`unknown\`, reconciled and not re-sent`, async () => {
    sandbox.faults.set({ mode: "lost_answer", path: "DTEUpload", count: 1, status });
    const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33) });
    expect(res.status).toBe(202);
    await waitForSubmissions(h.deps);
    const id: string = res.json.data.id;
    expect((await envelopeOf(id))?.status).toBe("unknown");
    const before = sandbox.envelopes().length;
    expect(await reconcileDocument(h.deps, id)).toBe("received");
    await submitDocuments(h.deps, [id]);
    expect(sandbox.envelopes().length).toBe(before);
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
  }, 30_000);

  test("an envelope still `uploading` is not reconciled before the SII request timeout has passed (its upload may be in flight)", async () => {
    const { id } = await emitUnanswered();
    const envelope = await envelopeOf(id);
    if (!envelope) throw new Error("no envelope");
    const markUploading = (at: Date) => h.deps.db.update(envelopes).set({ status: "uploading", updatedAt: at }).where(eq(envelopes.id, envelope.id));
    await markUploading(new Date());
    expect(await reconcileDocument(h.deps, id, { quietMs: 0 })).toBe("wait");
    await markUploading(new Date(Date.now() - h.deps.config.emitBudgetMs - 2_000));
    expect(await reconcileDocument(h.deps, id, { quietMs: 0 })).toBe("not_received");
  }, 30_000);

  test("an unanswered upload the SII registers only after reconciliation re-sent it: the repeated copy's rejection does not make it RECHAZADO", async () => {
    const { id, arrives } = await emitUnanswered();
    // QueryEstDte says FAU (the SII is still processing it): released and sent again …
    expect(await reconcileDocument(h.deps, id)).toBe("not_received");
    await arrives(); // … while the first copy does get registered (a slow SII)
    expect((await submitDocuments(h.deps, [id]))[0]?.estado).toBe("ENVIADO");
    const status = await h.call("GET", `/v1/dte/${id}/status?refresh=true`, { key });
    expect(status.json.data.sii.rechazados).toBe(1); // the repeated copy was rejected …
    expect(status.json.data.estado).toBe("ACEPTADO"); // … the first one stands
    expect(status.json.data.sii.errores[0]).toMatchObject({ codigo: "DOK" });
    expect(status.json.data.historial.at(-1).detalle).toContain("envío anterior");
  }, 30_000);

  test("an unanswered upload the SII received and rejected: the re-sent copy's DTE-3-100 stands, with the reason where to look", async () => {
    const { id, arrives } = await emitUnanswered(39, "Consumidor [sandbox:rechazo]");
    await arrives(); // the SII got it and rejected it (a rejected document reads FAU) …
    expect(await reconcileDocument(h.deps, id)).toBe("not_received");
    expect((await submitDocuments(h.deps, [id]))[0]?.estado).toBe("ENVIADO"); // … so it is sent again: a repeat
    const status = await h.call("GET", `/v1/dte/${id}/status?refresh=true`, { key });
    expect(status.json.data.estado).toBe("RECHAZADO");
    const errores: Array<{ codigo: string; ayuda: string }> = status.json.data.sii.errores;
    expect(errores.map((e) => e.codigo)).toContain("DTE-3-100");
    expect(errores.at(-1)).toMatchObject({ codigo: "FAU", ayuda: expect.stringContaining("envío anterior") });
  }, 30_000);

  test("after an unanswered envelope the dispatcher asks the SII about 8 of its documents at once, then sends them once", async () => {
    sandbox.faults.set({ mode: "timeout", path: "DTEUpload" });
    const res = await h.call("POST", "/v1/dte/batch", { key, body: { documents: Array.from({ length: 10 }, () => emitBody(33)) } });
    await waitForSubmissions(h.deps);
    sandbox.faults.clear();
    expect(res.status).toBe(200);
    const results = res.json.data.results as Array<{ data: { id: string; estado: string } }>;
    expect(results.map((r) => r.data.estado)).toEqual(Array(10).fill("PENDIENTE"));
    const ids = results.map((r) => r.data.id);
    expect((await envelopeOf(ids[0]!))?.status).toBe("unknown");
    await h.deps.db.update(documents).set({ nextCheckAt: new Date() }).where(inArray(documents.id, ids));
    await expectHeldAtOnce(sandbox, "QueryEstDte", 8, () => createDispatcher(h.deps, defaultDocumentEngine).tick());
    await waitForSubmissions(h.deps);
    const rows = await h.deps.db.select({ estado: documents.estado, trackId: documents.trackId }).from(documents).where(inArray(documents.id, ids));
    expect(rows.map((r) => r.estado)).toEqual(Array(10).fill("ENVIADO"));
    expect(new Set(rows.map((r) => r.trackId)).size).toBe(1); // the SII had none of them: sent again, together, once
    const all = await folios();
    expect(new Set(all).size).toBe(all.length);
  }, 60_000);

  test("[sandbox:timeout] → 202 PENDIENTE; the SII never registered it, so it is released for a new upload", async () => {
    const before = sandbox.envelopes().length;
    const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33, { receptor: { ...RECEPTOR, razon_social: "Lento [sandbox:timeout]" } }) });
    expect(res.status).toBe(202);
    expect(res.json.data.estado).toBe("PENDIENTE");
    await waitForSubmissions(h.deps);
    expect(sandbox.envelopes().length).toBe(before);
    expect(await reconcileDocument(h.deps, res.json.data.id)).toBe("not_received");
    const [doc] = await h.deps.db.select().from(documents).where(eq(documents.id, res.json.data.id));
    expect(doc?.envelopeId).toBeNull();
    expect(doc?.estado).toBe("PENDIENTE");
  }, 30_000);

  test("SII down before authentication → 202, the envelope is failed (certainly not sent) and the next submit sends it", async () => {
    const id = await emitWhileSiiDownBeforeAuthentication();
    const [doc] = await h.deps.db.select().from(documents).where(eq(documents.id, id));
    expect(doc?.envelopeId).toBeNull();
    expect((await submitDocuments(h.deps, [id]))[0]?.estado).toBe("ENVIADO");
  }, 30_000);

  for (const [tipo, path] of [[33, "GetTokenFromSeed"], [39, "boleta.electronica.token"]] as const) {
    test(`${tipo}: the SII refuses to authenticate (ESTADO -07) → 202 PENDIENTE with the reason in /status, never RECHAZADO; sent once it authenticates again`, async () => {
      const before = sandbox.envelopes().length;
      (await openSiiSession(h.deps, businessId, "test")).client.invalidateTokens();
      sandbox.faults.set({ mode: "token_refused", path });
      let id: string;
      try {
        const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(tipo) });
        await waitForSubmissions(h.deps);
        expect(res.status).toBe(202);
        expect(res.json.data.estado).toBe("PENDIENTE");
        id = res.json.data.id;
        const status = await h.call("GET", `/v1/dte/${id}/status`, { key });
        expect(status.json.data.estado).toBe("PENDIENTE");
        expect(status.json.data.sii.errores[0]).toMatchObject({ codigo: "-07" });
        expect(status.json.data.sii.errores[0].ayuda).toContain("certificado digital");
        expect(status.json.data.historial.map((e: { estado: string }) => e.estado)).toEqual(["PENDIENTE"]);
        expect((await envelopeOf(id))).toBeNull(); // released: certainly not sent
        expect(sandbox.envelopes().length).toBe(before);
      } finally {
        sandbox.faults.clear();
      }
      expect((await submitDocuments(h.deps, [id]))[0]?.estado).toBe("ENVIADO");
      expect(sandbox.envelopes().length).toBe(before + 1);
      expect((await h.call("GET", `/v1/dte/${id}/status`, { key })).json.data.sii.errores).toEqual([]); // the refusal no longer holds
    }, 30_000);
  }

  test("/status?refresh=true while the SII refuses to authenticate → 200 with the stored status, not a 500", async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33) });
    expect(res.status).toBe(201);
    (await openSiiSession(h.deps, businessId, "test")).client.invalidateTokens();
    sandbox.faults.set({ mode: "token_refused", path: "GetTokenFromSeed" });
    try {
      const status = await h.call("GET", `/v1/dte/${res.json.data.id}/status?refresh=true`, { key });
      expect(status.status).toBe(200);
      expect(status.json.data.estado).toBe("ENVIADO");
    } finally {
      sandbox.faults.clear();
    }
  }, 30_000);

  test("an envelope left `building` by a stopped process: given up after 30 s, its document released and sent once; a late builder cannot upload it", async () => {
    const id = await emitWhileSiiDownBeforeAuthentication();
    // What a process killed between claiming the document and storing the envelope leaves behind.
    const building = async (ageMs: number) => {
      const envelopeId = `env_building_${ageMs}_${driver}`;
      const at = new Date(Date.now() - ageMs);
      await h.deps.db.insert(envelopes).values({ id: envelopeId, businessId, environment: "test", kind: "EnvioDTE", xml: new Uint8Array(), status: "building", createdAt: at, updatedAt: at });
      await h.deps.db.update(documents).set({ envelopeId }).where(eq(documents.id, id));
      return envelopeId;
    };
    const fresh = await building(BUILDING_ABANDONED_MS - 10_000);
    expect(await reconcileDocument(h.deps, id)).toBe("wait"); // its builder may still be at work
    const old = await building(BUILDING_ABANDONED_MS + 1_000);
    const uploadsBefore = sandbox.envelopes().length;
    expect(await reconcileDocument(h.deps, id)).toBe("not_received");
    const [given] = await h.deps.db.select().from(envelopes).where(eq(envelopes.id, old));
    expect(given?.status).toBe("failed");
    expect((await h.deps.db.select().from(documents).where(eq(documents.id, id)))[0]?.envelopeId).toBeNull();
    // The builder of that envelope, had it only been slow, now finds it given up and must not upload it.
    expect(await storeForUpload(h.deps, old, { xml: new Uint8Array([1]), layout: null })).toBe(false);
    expect(await storeForUpload(h.deps, fresh, { xml: new Uint8Array([1]), layout: null })).toBe(true); // still building: stored
    expect((await submitDocuments(h.deps, [id]))[0]?.estado).toBe("ENVIADO");
    expect(sandbox.envelopes().length).toBe(uploadsBefore + 1);
    // The dispatcher's envelope (claimed, built, stored) is stored without the document's bytes and joins again.
    const sent = await envelopeOf(id);
    if (!sent) throw new Error("no envelope");
    expect(sent.layout?.map(([doc]) => doc)).toEqual([id]);
    const joined = await readStoredEnvelope(h.deps.db, sent);
    expect(verifyEnvelope(joined).valid).toBe(true);
    expect(joined.byteLength).toBeGreaterThan(sent.xml.byteLength);
  }, 30_000);
});
