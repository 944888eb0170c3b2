import { afterAll, beforeAll, expect, test } from "bun:test";
import { sandboxCaf } from "../../../test/support/cafs.js";
import { emitBody, uploadCertificate } from "../../../test/support/emission.js";
import { expectError, tenant } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";

// SII folios have up to 10 digits: a range beyond 2^31 is stored, taken and shown exactly.
const DESDE = 4_000_000_000;

describeDrivers("folios beyond 2^31", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof tenant>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await tenant(h);
    await uploadCertificate(h, t.business.id, t.key.key);
  }, 60_000);
  afterAll(async () => h?.close());

  test("a CAF of folios 4,000,000,000–4,000,000,009 is stored and emits folio after folio", async () => {
    const uploaded = await h.call("POST", `/v1/businesses/${t.business.id}/numerations`, { key: t.key.key, raw: await sandboxCaf(h, { tipo: 33, desde: DESDE, hasta: DESDE + 9 }), headers: { "content-type": "application/xml" } });
    expect(uploaded.status).toBe(201);
    expect(uploaded.json.data).toMatchObject({ desde: DESDE, hasta: DESDE + 9, siguiente_folio: DESDE, disponibles: 10 });
    const folios: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33) });
      expect([201, 202]).toContain(res.status);
      folios.push(res.json.data.folio);
    }
    // A batch: its documents' folios are forecast and stored in one statement when the forecast holds.
    const batch = await h.call("POST", "/v1/dte/batch", { key: t.key.key, body: { documents: [emitBody(33), emitBody(33), emitBody(33)] } });
    expect(batch.status).toBe(200);
    for (const r of batch.json.data.results as Array<{ success: boolean; data: { folio: number } }>) {
      expect(r.success).toBe(true);
      folios.push(r.data.folio);
    }
    expect(folios).toEqual([0, 1, 2, 3, 4, 5].map((i) => DESDE + i));
    const listed = await h.call("GET", "/v1/dte?tipo=33", { key: t.key.key });
    expect(listed.json.data.map((d: { folio: number }) => d.folio).sort()).toEqual(folios.slice().sort());
    const first = listed.json.data.find((d: { folio: number }) => d.folio === DESDE);
    const xml = await h.call("GET", `/v1/dte/${first.id}/xml`, { key: t.key.key });
    expect(xml.text).toContain(`<Folio>${DESDE}</Folio>`);
    const numeration = await h.call("GET", `/v1/numerations/${uploaded.json.data.id}`, { key: t.key.key });
    expect(numeration.json.data).toMatchObject({ siguiente_folio: DESDE + 6, disponibles: 4, usados: 6 });
  }, 60_000);

  test("a folio beyond 2^31 is found by the list's filter and as a note's own document (codigo defaults, annulled once)", async () => {
    const listed = await h.call("GET", `/v1/dte?folio=${DESDE}`, { key: t.key.key });
    expect(listed.status).toBe(200);
    expect(listed.json.data.map((d: { folio: number }) => d.folio)).toEqual([DESDE]);
    const original = listed.json.data[0] as { folio: number; fecha: string; monto_total: number };
    const notes = await h.call("POST", `/v1/businesses/${t.business.id}/numerations`, { key: t.key.key, raw: await sandboxCaf(h, { tipo: 61, desde: 1, hasta: 10 }), headers: { "content-type": "application/xml" } });
    expect(notes.status).toBe(201);
    const ref = { tipo_doc: 33, folio: original.folio, fecha: original.fecha, razon: "Anula factura" };
    const note = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(61, { referencia: ref }) });
    expect(note.status).toBe(201);
    const detail = await h.call("GET", `/v1/dte/${note.json.data.id}`, { key: t.key.key });
    expect(detail.json.data.referencias[0]).toMatchObject({ folio: DESDE, codigo: 1 });
    expectError(await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(61, { referencia: ref }) }), 422, "REFERENCE_INVALID");
  }, 60_000);
});
