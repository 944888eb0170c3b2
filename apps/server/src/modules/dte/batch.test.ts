import { afterAll, beforeAll, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { idempotencyKeys } from "../../db/idempotency-keys.js";
import { batchResource } from "../../http/idempotency.js";
import { startLiveness } from "../../liveness.js";
import type { Sandbox } from "@timbre/sii";
import { documents } from "../../db/documents.js";
import { expectError } from "../../../test/support/fixtures.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter } from "../../../test/support/emission.js";

describeDrivers("batch, idempotency, preview and annulment", (driver) => {
  let h: Harness;
  let key: string;
  let sandbox: Sandbox;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", RATE_LIMIT_PER_MINUTE: "1000" });
    key = (await emitter(h, { tipos: [33, 34, 39, 61], cantidad: 200 })).key.key;
    const gateway = await h.deps.sii();
    if (!gateway.sandbox) throw new Error("no sandbox");
    sandbox = gateway.sandbox;
  }, 60_000);
  afterAll(async () => h?.close());

  const documentCount = async () => Number((await h.deps.db.select({ n: count() }).from(documents))[0]?.n ?? 0);

  test("a batch of 50 (facturas and boletas) travels in 2 envelopes; invalid items fail alone; one rate-limit hit", async () => {
    const before = sandbox.envelopes().length;
    const bodies = Array.from({ length: 50 }, (_, i) => emitBody(i % 2 === 0 ? 33 : 39));
    bodies[7] = { ...emitBody(33), receptor: { rut: "1-1", razon_social: "" } };
    const res = await h.call("POST", "/v1/dte/batch", { key, body: { documents: bodies } });
    expect(res.status).toBe(200);
    const results = res.json.data.results;
    expect(results.map((r: { index: number }) => r.index)).toEqual([...Array(50).keys()]);
    expect(results[7]).toMatchObject({ index: 7, success: false, error: { code: "VALIDATION_ERROR" } });
    const ok = results.filter((r: { success: boolean }) => r.success);
    expect(ok).toHaveLength(49);
    expect(ok.every((r: { data: { estado: string } }) => r.data.estado === "ENVIADO")).toBe(true);
    const uploads = sandbox.envelopes().slice(before);
    expect(uploads.length).toBe(2);
    expect(uploads.map((e) => e.documents.length).sort()).toEqual([24, 25]);
    const folios = ok.map((r: { data: { tipo: number; folio: number } }) => `${r.data.tipo}/${r.data.folio}`);
    expect(new Set(folios).size).toBe(49);
    expect(res.headers.get("RateLimit")).toContain("r=");
  }, 60_000);

  test("a key whose first request died after storing its document replays that document, never a second folio", async () => {
    const headers = { "Idempotency-Key": `crash-${driver}` };
    const first = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33), headers });
    expect(first.status).toBe(201);
    const n = await documentCount();
    // What a process killed between the emission transaction and storing the answer leaves behind:
    // the document (linked to the key in its own transaction) and a key without answer, now abandoned.
    const [row] = await h.deps.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, headers["Idempotency-Key"]));
    expect(row?.resourceId).toBe(first.json.data.id);
    await h.deps.db
      .update(idempotencyKeys)
      .set({ responseStatus: null, responseBodyEnc: null, createdAt: new Date(Date.now() - 6 * 60_000) })
      .where(eq(idempotencyKeys.key, headers["Idempotency-Key"]));
    const retry = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33), headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.json.data.id).toBe(first.json.data.id);
    expect(retry.json.data.folio).toBe(first.json.data.folio);
    expect(await documentCount()).toBe(n);
    // and from then on the stored answer is replayed as usual
    const again = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33), headers });
    expect(again.json.data.id).toBe(first.json.data.id);
    expect(await documentCount()).toBe(n);
  }, 30_000);

  test("a key whose first request's process is gone replays its document at once; while that process lives, 409", async () => {
    const headers = { "Idempotency-Key": `gone-${driver}` };
    const first = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33), headers });
    expect(first.status).toBe(201);
    const n = await documentCount();
    // Another server process (its own session lock on PostgreSQL; on PGlite only this process can run).
    const url = process.env.DATABASE_URL;
    const other =
      driver === "postgres" && url
        ? startLiveness({ kind: "postgres", url: (h.database.jobStore as { url: string }).url, sessionLocks: true }, h.deps.db, "other-process", h.deps.log)
        : null;
    try {
      if (other) for (let i = 0; i < 100 && other.owner() === null; i++) await Bun.sleep(20);
      // That process stored the document and was still answering (a minute ago, well within the 5-minute timeout).
      await h.deps.db
        .update(idempotencyKeys)
        .set({ responseStatus: null, responseBodyEnc: null, owner: other?.owner() ?? "other-process", createdAt: new Date(Date.now() - 60_000) })
        .where(eq(idempotencyKeys.key, headers["Idempotency-Key"]));
      if (other) {
        expectError(await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33), headers }), 409, "IDEMPOTENCY_IN_PROGRESS");
        await other.close(); // its session ends, as when the process dies
      }
      const retry = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33), headers });
      expect(retry.status).toBe(201);
      expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
      expect(retry.json.data.id).toBe(first.json.data.id);
      expect(await documentCount()).toBe(n);
    } finally {
      await other?.close();
    }
  }, 30_000);

  test("a keyed batch whose first request died part-way: the retry reuses the stored items and emits only the rest", async () => {
    const headers = { "Idempotency-Key": `batch-crash-${driver}` };
    const body = { documents: [emitBody(33), emitBody(39), emitBody(33)] };
    const first = await h.call("POST", "/v1/dte/batch", { key, body, headers });
    expect(first.status).toBe(200);
    const ids = first.json.data.results.map((r: { data: { id: string } }) => r.data.id);
    const [row] = await h.deps.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, headers["Idempotency-Key"]));
    // every item was linked to the key in the transaction that created it
    expect(batchResource(row?.resourceId)).toEqual(new Map(ids.map((id: string, i: number) => [i, id])));
    // What a process killed after item 1's transaction leaves: items 0 and 1 linked, item 2 never created, no answer.
    await h.deps.db
      .update(idempotencyKeys)
      .set({ resourceId: `batch:,0=${ids[0]},1=${ids[1]}`, responseStatus: null, responseBodyEnc: null, createdAt: new Date(Date.now() - 6 * 60_000) })
      .where(eq(idempotencyKeys.key, headers["Idempotency-Key"]));
    const n = await documentCount();
    const retry = await h.call("POST", "/v1/dte/batch", { key, body, headers });
    expect(retry.status).toBe(200);
    const again = retry.json.data.results;
    expect(again.map((r: { success: boolean }) => r.success)).toEqual([true, true, true]);
    expect(again[0].data).toMatchObject({ id: ids[0], folio: first.json.data.results[0].data.folio });
    expect(again[1].data).toMatchObject({ id: ids[1], folio: first.json.data.results[1].data.folio });
    expect(again[2].data.id).not.toBe(ids[2]); // item 2 "never existed" for the key: emitted now, once
    expect(await documentCount()).toBe(n + 1);
    // the answer is stored: a third call replays it without touching anything
    const third = await h.call("POST", "/v1/dte/batch", { key, body, headers });
    expect(third.headers.get("Idempotent-Replayed")).toBe("true");
    expect(third.json.data.results.map((r: { data: { id: string } }) => r.data.id)).toEqual(again.map((r: { data: { id: string } }) => r.data.id));
    expect(await documentCount()).toBe(n + 1);
  }, 30_000);

  test("batch body checks: 0 or more than 500 documents → 422", async () => {
    expectError(await h.call("POST", "/v1/dte/batch", { key, body: { documents: [] } }), 422, "VALIDATION_ERROR");
    const tooMany = await h.call("POST", "/v1/dte/batch", { key, body: { documents: Array.from({ length: 501 }, () => ({})) } });
    expectError(tooMany, 422, "VALIDATION_ERROR");
    expect(tooMany.json.error.details.field).toBe("documents");
  });

  test("idempotent replay returns the same document and takes no folio", async () => {
    const headers = { "Idempotency-Key": "emit-once-1" };
    const first = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(34), headers });
    expect(first.status).toBe(201);
    const n = await documentCount();
    const replay = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(34), headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.json.data).toEqual(first.json.data);
    expect(await documentCount()).toBe(n);
    const next = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(34) });
    expect(next.json.data.folio).toBe(first.json.data.folio + 1);
    expectError(await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33), headers }), 422, "IDEMPOTENCY_KEY_REUSED");
  }, 30_000);

  test("preview: totals and unsigned XML, or a PDF; no folio, nothing stored", async () => {
    const n = await documentCount();
    const res = await h.call("POST", "/v1/dte/preview", { key, body: emitBody(33) });
    expect(res.status).toBe(200);
    expect(res.json.data.totals).toMatchObject({ monto_neto: 113501, monto_iva: 21565, monto_total: 135066, monto_exento: 0 });
    expect(res.json.data.totals.items.map((i: { monto: number }) => i.monto)).toEqual([100000, 13501]);
    expect(res.json.data.xml_preview).toStartWith('<Documento ID="T33F0">');
    expect(res.json.data.xml_preview).not.toContain("<TED");
    const discounted = await h.call("POST", "/v1/dte/preview", { key, body: emitBody(33, { descuento_global_porcentaje: 5.5 }) });
    expect(discounted.json.data.totals.descuento_global).toEqual({ porcentaje: 5.5, monto: 6243, sobre: "afecto" });
    const pdf = await h.call("POST", "/v1/dte/preview?format=pdf", { key, body: emitBody(39) });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.text.startsWith("%PDF-")).toBe(true);
    expectError(await h.call("POST", "/v1/dte/preview", { key, body: { tipo: 33 } }), 422, "VALIDATION_ERROR");
    // a binary answer is not stored: the same Idempotency-Key can preview again at once (no IN_PROGRESS lock-out)
    const idem = { "idempotency-key": `pdf-preview-${driver}` };
    for (let i = 0; i < 2; i++) {
      const again = await h.call("POST", "/v1/dte/preview?format=pdf", { key, body: emitBody(39), headers: idem });
      expect(again.status).toBe(200);
      expect(again.headers.get("content-type")).toBe("application/pdf");
    }
    expect(await documentCount()).toBe(n);
  }, 30_000);

  test("anular twice at the same moment: exactly one credit note", async () => {
    const original = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33) });
    const id = original.json.data.id;
    const results = await Promise.all([0, 1, 2].map(() => h.call("POST", `/v1/dte/${id}/anular`, { key })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) expect(r.json.error.code).toBe("REFERENCE_INVALID");
  }, 30_000);

  test("anular: a 61 with CodRef 1 copying receptor and items; then REFERENCE_INVALID", async () => {
    const original = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33) });
    const id = original.json.data.id;
    const note = await h.call("POST", `/v1/dte/${id}/anular`, { key, body: { razon: "Error en la venta" } });
    expect(note.status).toBe(201);
    expect(note.json.data).toMatchObject({ tipo: 61, estado: "ENVIADO", monto_total: original.json.data.monto_total, receptor: original.json.data.receptor });
    const detail = await h.call("GET", `/v1/dte/${note.json.data.id}`, { key });
    expect(detail.json.data.referencias).toEqual([{ tipo_doc: 33, folio: original.json.data.folio, fecha: original.json.data.fecha, razon: "Error en la venta", codigo: 1 }]);
    expect(detail.json.data.items.map((i: { nombre: string; monto: number }) => [i.nombre, i.monto])).toEqual([["Servicio de consultoría", 100000], ["Licencia", 13501]]);
    const twice = await h.call("POST", `/v1/dte/${id}/anular`, { key });
    expectError(twice, 422, "REFERENCE_INVALID");
    const ofNote = await h.call("POST", `/v1/dte/${note.json.data.id}/anular`, { key });
    expectError(ofNote, 422, "REFERENCE_INVALID");
    expectError(await h.call("POST", "/v1/dte/dte_00000000000000000000000000/anular", { key }), 404, "NOT_FOUND");
    // the optional body is checked before anything is issued
    const before = await documentCount();
    const other = (await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33) })).json.data.id;
    const badReason = await h.call("POST", `/v1/dte/${other}/anular`, { key, body: { razon: 5 } });
    expectError(badReason, 422, "VALIDATION_ERROR");
    expect(badReason.json.error.details).toMatchObject({ field: "razon", reason: "type" });
    const badList = await h.call("POST", `/v1/dte/${other}/anular`, { key, body: [1] });
    expectError(badList, 422, "VALIDATION_ERROR");
    expect(badList.json.error.details.field).toBe("body");
    const badComuna = await h.call("POST", `/v1/dte/${other}/anular`, { key, body: { receptor: { comuna: "c".repeat(21) } } });
    expect(badComuna.json.error.details).toMatchObject({ field: "receptor.comuna", reason: "max_length" });
    expect(await documentCount()).toBe(before + 1);
    const exempt = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(34) });
    const exemptNote = await h.call("POST", `/v1/dte/${exempt.json.data.id}/anular`, { key });
    expect(exemptNote.status).toBe(201);
    expect(exemptNote.json.data).toMatchObject({ monto_exento: exempt.json.data.monto_total, monto_total: exempt.json.data.monto_total, monto_iva: 0 });
    // The exempt factura's lines read as exempt in its detail (as applied), though the request did not mark them.
    const exemptDetail = (await h.call("GET", `/v1/dte/${exempt.json.data.id}`, { key })).json.data;
    expect(exemptDetail.items.map((i: { exento: boolean }) => i.exento)).toEqual([true, true]);
    expect(exemptDetail.precios_brutos).toBe(false);
  }, 30_000);
});
