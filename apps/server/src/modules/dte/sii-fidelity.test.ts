// Issue 46 through the API: what the server knows itself it refuses at once (422 with the field); what only the SII
// can judge reaches the sandbox SII, which answers as the SII does (outcome by QueryEstUp, code kept in its record —
// the SII's result mail). Direct uploads: packages/sii/test/fidelity.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";
import { businessBody, expectError, signUp } from "../../../test/support/fixtures.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter } from "../../../test/support/emission.js";

describeDrivers("the server and the sandbox SII refuse what the SII refuses (issue 46)", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await emitter(h, { tipos: [33, 61] });
  }, 60_000);
  afterAll(async () => h?.close());

  const emit = (body: unknown) => h.call("POST", "/v1/dte/emit", { key: t.key.key, body });
  const put = (body: unknown) => h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body });
  const fields = (res: { json: { error: { details: { errors: Array<{ field: string; reason: string }> } } } }) =>
    res.json.error.details.errors.map((e) => `${e.field}:${e.reason}`);
  /** The sandbox SII's codes for the document's envelope (what its result mail would carry). */
  async function siiCodes(trackId: string): Promise<string[]> {
    const record = (await h.deps.sii()).sandbox?.envelope(trackId.padStart(10, "0"));
    return [...(record?.envelopeErrors ?? []), ...(record?.documents.flatMap((d) => d.errors) ?? [])].map((e) => e.codigo);
  }
  async function emitAndJudge(body: unknown) {
    const res = await emit(body);
    expect(res.status).toBe(201);
    const after = await refreshDocumentStatus(h.deps, res.json.data.id);
    return { estado: after?.estado, codes: await siiCodes(res.json.data.track_id) };
  }

  test("1. a 61 codigo 3 to a 33 Timbre does not know: accepted by Timbre (the SII judges), RECHAZADO REF-3-750 by the SII", async () => {
    const body = emitBody(61, { items: [{ nombre: "Ajuste", cantidad: 1, precio: 1000 }], referencia: { tipo_doc: 33, folio: 900, fecha: "2026-01-15", codigo: 3, razon: "Ajuste" } });
    expect(await emitAndJudge(body)).toEqual({ estado: "RECHAZADO", codes: ["REF-3-750"] });
  }, 30_000);

  test("2. a resolution dated in the future → 422 resolucion.fecha date_in_future", async () => {
    const res = await put({ resolucion: { numero: 999, fecha: "2030-01-01" } });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(fields(res)).toEqual(["resolucion.fecha:date_in_future"]);
  });

  test("2. a production resolution does not reach certificación: the test envelope carries NroResol 0 and is ACEPTADO", async () => {
    expect((await put({ resolucion: { numero: 999, fecha: "2014-08-22" } })).status).toBe(200);
    try {
      expect(await emitAndJudge(emitBody(33))).toEqual({ estado: "ACEPTADO", codes: [] });
    } finally {
      await put({ resolucion: null });
    }
  }, 30_000);

  test("3. the razón social changed after the CAF was issued → ACEPTADO_CON_REPAROS, HED-1-863", async () => {
    expect((await put({ razon_social: "Comercial Renombrada SpA" })).status).toBe(200);
    try {
      expect(await emitAndJudge(emitBody(33))).toEqual({ estado: "ACEPTADO_CON_REPAROS", codes: ["HED-1-863"] });
    } finally {
      await put({ razon_social: "Comercial Ejemplo SpA" });
    }
  }, 30_000);

  test("4. acteco outside the SII's list of economic activities → 422 acteco[i] enum, on create and update", async () => {
    const res = await put({ acteco: [620200, 999999] });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(fields(res)).toEqual(["acteco[1]:enum"]);
    expect((await put({ acteco: [620200, 561000] })).status).toBe(200);
    const user = await signUp(h);
    const created = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ acteco: [726000] }) });
    expectError(created, 422, "VALIDATION_ERROR");
    expect(fields(created)).toEqual(["acteco[0]:enum"]);
  });

  test("5. receptor RUT 1-9 (outside 100.000–99.999.999) → 422 receptor.rut minimum", async () => {
    const res = await emit(emitBody(33, { receptor: { ...emitBody(33).receptor as object, rut: "1-9" } }));
    expectError(res, 422, "VALIDATION_ERROR");
    expect(fields(res)).toEqual(["receptor.rut:minimum"]);
  });

  test("6. referencia.tipo_doc 5 or 999 → enum; referencia.fecha 2001-01-01 → minimum (formato DTE, Referencias)", async () => {
    for (const tipo_doc of [5, 999]) {
      const res = await emit(emitBody(33, { referencia: { tipo_doc, folio: 1, fecha: "2026-01-15" } }));
      expectError(res, 422, "VALIDATION_ERROR");
      expect(fields(res)).toEqual(["referencia.tipo_doc:enum"]);
    }
    const old = await emit(emitBody(33, { referencia: { tipo_doc: 801, folio: "OC-1", fecha: "2001-01-01" } }));
    expectError(old, 422, "VALIDATION_ERROR");
    expect(fields(old)).toEqual(["referencia.fecha:minimum"]);
  });
});
