import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { businesses } from "../../db/businesses.js";
import { createKey, expectError, tenant } from "../../../test/support/fixtures.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter, issueFolios, RECEPTOR, uploadCertificate } from "../../../test/support/emission.js";

describeDrivers("POST /v1/dte/emit errors (API.md §6.3)", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await emitter(h, { tipos: [33, 56, 61] });
  }, 60_000);
  afterAll(async () => h?.close());

  const emit = (body: unknown, key = t.key.key) => h.call("POST", "/v1/dte/emit", { key, body });

  test("missing required field → 422 VALIDATION_ERROR with field path and reason required", async () => {
    const body = emitBody(33);
    const res = await emit({ ...body, receptor: { ...RECEPTOR, rut: undefined } });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details).toMatchObject({ field: "receptor.rut", reason: "required" });
  });

  test("the anonymous consumer 66666666-6 on a factura or a note to a factura → 422 VALIDATION_ERROR receptor.rut not_allowed", async () => {
    const anonymous = { ...RECEPTOR, rut: "66666666-6" };
    const res = await emit({ ...emitBody(33), receptor: anonymous });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details).toMatchObject({ field: "receptor.rut", reason: "not_allowed" });
    expect(res.json.error.details.errors).toEqual([expect.objectContaining({ field: "receptor.rut", reason: "not_allowed" })]);
    const first = await emit(emitBody(33));
    expect(first.status).toBe(201);
    const note = emitBody(61, { receptor: anonymous, referencia: { tipo_doc: 33, folio: first.json.data.folio, fecha: first.json.data.fecha, razon: "Anula" } });
    expect((await emit(note)).json.error.details).toMatchObject({ field: "receptor.rut", reason: "not_allowed" });
    expectError(await h.call("POST", "/v1/dte/preview", { key: t.key.key, body: { ...emitBody(33), receptor: anonymous } }), 422, "VALIDATION_ERROR");
  });

  test("every problem at once: schema and domain rules in one 422", async () => {
    const res = await emit({
      tipo: 33,
      fecha: "2999-01-01",
      receptor: { rut: "76192083-1", razon_social: "Café ☕", giro: "x".repeat(41) },
      items: [{ nombre: "", cantidad: 0, precio: "diez" }, { nombre: "Ok", cantidad: 1, precio: 100, descuento_porcentaje: 120 }],
      forma_pago: 9,
    });
    expectError(res, 422, "VALIDATION_ERROR");
    const byField = Object.fromEntries(res.json.error.details.errors.map((e: { field: string; reason: string }) => [e.field, e.reason]));
    expect(byField).toMatchObject({
      fecha: "date_in_future",
      "receptor.rut": "invalid_rut",
      "receptor.razon_social": "charset",
      "receptor.giro": "max_length",
      "receptor.direccion": "required",
      "receptor.comuna": "required",
      "items[0].nombre": "min_length",
      "items[0].cantidad": "minimum",
      "items[0].precio": "type",
      "items[1].descuento_porcentaje": "maximum",
      forma_pago: "enum",
    });
    expect(res.json.error.details.field).toBe(res.json.error.details.errors[0].field);
  });

  test("amounts beyond what JSON numbers keep exact → 422 maximum before any folio is taken; preview alike", async () => {
    const first = await emit(emitBody(33));
    expect(first.status).toBe(201);
    const huge = { ...emitBody(33), items: [{ nombre: "Todo", cantidad: 999_999_999_999, precio: 999_999_999_999 }] };
    const res = await emit(huge);
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details.errors).toContainEqual(expect.objectContaining({ field: "items[0]", reason: "maximum" }));
    expectError(await h.call("POST", "/v1/dte/preview", { key: t.key.key, body: huge }), 422, "VALIDATION_ERROR");
    const totalTooLarge = { ...emitBody(33), items: [{ nombre: "Todo", cantidad: 999_999_999_999, precio: 7570 }] };
    expect((await emit(totalTooLarge)).json.error.details.errors).toContainEqual(expect.objectContaining({ field: "items", reason: "maximum" }));
    const next = await emit(emitBody(33));
    expect(next.json.data.folio).toBe(first.json.data.folio + 1);
  });

  test("unknown tipo → enum; not an object → 422", async () => {
    const res = await emit(emitBody(47));
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details.errors).toContainEqual(expect.objectContaining({ field: "tipo", reason: "enum" }));
    expectError(await emit([1, 2]), 422, "VALIDATION_ERROR");
  });

  test("more than 60 lines on a factura → max_items", async () => {
    const items = Array.from({ length: 61 }, (_, i) => ({ nombre: `Línea ${i}`, cantidad: 1, precio: 10 }));
    const res = await emit(emitBody(33, { items }));
    expect(res.json.error.details.errors).toContainEqual(expect.objectContaining({ field: "items", reason: "max_items" }));
  });

  test("CERTIFICATE_REQUIRED without a certificate; CERTIFICATE_INVALID once it expired", async () => {
    const bare = await tenant(h, "77777777-7");
    await issueFolios(h, bare.key.key, 33, 5);
    expectError(await emit(emitBody(33), bare.key.key), 422, "CERTIFICATE_REQUIRED");
    await uploadCertificate(h, bare.business.id, bare.key.key);
    const [row] = await h.deps.db.select().from(businesses).where(eq(businesses.id, bare.business.id));
    if (!row?.certificate) throw new Error("no certificate");
    await h.deps.db.update(businesses).set({ certificate: { ...row.certificate, valid_to: "2020-01-01T00:00:00.000Z" } }).where(eq(businesses.id, bare.business.id));
    const expired = await emit(emitBody(33), bare.key.key);
    expectError(expired, 422, "CERTIFICATE_INVALID");
    expect(expired.json.error.details.reason).toBe("expired");
  }, 30_000);

  test("FOLIOS_EXHAUSTED: no range for the tipo, and after the last folio; errors take no folio", async () => {
    expectError(await emit(emitBody(34)), 422, "FOLIOS_EXHAUSTED");
    const small = await emitter(h, { tipos: [33], rut: "96790240-3", cantidad: 2 });
    expectError(await emit({ ...emitBody(33), items: [] }, small.key.key), 422, "VALIDATION_ERROR");
    expect((await emit(emitBody(33), small.key.key)).json.data.folio).toBe(1);
    expect((await emit(emitBody(33), small.key.key)).json.data.folio).toBe(2);
    const exhausted = await emit(emitBody(33), small.key.key);
    expectError(exhausted, 422, "FOLIOS_EXHAUSTED");
    expect(exhausted.json.error.details).toMatchObject({ tipo: 33, environment: "test" });
  }, 30_000);

  test("a document dated before its range's authorisation takes no folio from it (the SII would reject it, HED-3-305)", async () => {
    const fresh = await emitter(h, { tipos: [33], rut: "77777777-7", cantidad: 5 }); // sandbox CAFs are authorised today
    const yesterday = new Date(Date.now() - 86_400_000).toLocaleDateString("en-CA", { timeZone: "America/Santiago" });
    const backdated = await emit({ ...emitBody(33), fecha: yesterday }, fresh.key.key);
    expectError(backdated, 422, "FOLIOS_EXHAUSTED");
    expect(backdated.json.error.details).toMatchObject({ tipo: 33, fecha: yesterday });
    expect((await emit(emitBody(33), fresh.key.key)).json.data.folio).toBe(1);
  }, 30_000);

  test("a note without referencia → 422 VALIDATION_ERROR required (API.md §3)", async () => {
    const missing = await emit(emitBody(61));
    expectError(missing, 422, "VALIDATION_ERROR");
    expect(missing.json.error.details).toMatchObject({ field: "referencia", reason: "required" });
  });

  test("a note on a document issued before Timbre: any codigo accepted, and required (no default)", async () => {
    const elsewhere = (codigo?: number, folio = 777_001) => ({ tipo_doc: 33, folio, fecha: "2026-01-02", razon: "Nota", ...(codigo === undefined ? {} : { codigo }) });
    for (const codigo of [1, 2, 3]) {
      const note = await emit(emitBody(61, { referencia: elsewhere(codigo, 777_000 + codigo) }));
      expect(note.status).toBe(201);
      const detail = await h.call("GET", `/v1/dte/${note.json.data.id}`, { key: t.key.key });
      expect(detail.json.data.referencias[0]).toMatchObject({ tipo_doc: 33, folio: 777_000 + codigo, codigo });
    }
    const unsaid = await emit(emitBody(61, { referencia: elsewhere() }));
    expectError(unsaid, 422, "VALIDATION_ERROR");
    expect(unsaid.json.error.details).toMatchObject({ field: "referencia.codigo", reason: "required" });
    // the general form names the reference by its place; a paper factura (30) is a document Timbre does not know too
    const several = await emit(emitBody(61, { referencias: [{ tipo_doc: "SET", folio: "0", fecha: "2026-01-02", razon: "CASO 1" }, elsewhere(), { ...elsewhere(), tipo_doc: 30 }] }));
    expectError(several, 422, "VALIDATION_ERROR");
    expect(several.json.error.details.errors.map((e: { field: string; reason: string }) => `${e.field}:${e.reason}`)).toEqual(["referencias[1].codigo:required", "referencias[2].codigo:required"]);
    // an own document keeps its default beside an unsaid one: the note says what it does
    const own = await emit(emitBody(33));
    const withOwn = await emit(emitBody(61, { referencias: [{ tipo_doc: 33, folio: own.json.data.folio, fecha: own.json.data.fecha, razon: "Ajuste" }, elsewhere()] }));
    expect(withOwn.status).toBe(201);
  }, 30_000);

  test("REFERENCE_INVALID: a rejected own document", async () => {
    const rejected = await emit(emitBody(33, { receptor: { ...RECEPTOR, razon_social: "X [sandbox:rechazo]" } }));
    const status = await h.call("GET", `/v1/dte/${rejected.json.data.id}/status?refresh=true`, { key: t.key.key });
    expect(status.json.data.estado).toBe("RECHAZADO");
    const ref = { tipo_doc: 33, folio: rejected.json.data.folio, fecha: rejected.json.data.fecha };
    const onRejected = await emit(emitBody(61, { referencia: ref }));
    expectError(onRejected, 422, "REFERENCE_INVALID");
    expect(onRejected.json.error.details.reason).toBe("rejected");
  }, 30_000);

  test("CodRef defaults to 1 when the note's total equals the referenced document's, and annuls it once", async () => {
    const original = await emit(emitBody(33));
    const ref = { tipo_doc: 33, folio: original.json.data.folio, fecha: original.json.data.fecha, razon: "Anula factura" };
    const note = await emit(emitBody(61, { referencia: ref }));
    expect(note.status).toBe(201);
    expect(note.json.data.monto_total).toBe(original.json.data.monto_total);
    const detail = await h.call("GET", `/v1/dte/${note.json.data.id}`, { key: t.key.key });
    expect(detail.json.data.referencias[0].codigo).toBe(1);
    const again = await emit(emitBody(61, { referencia: ref }));
    expectError(again, 422, "REFERENCE_INVALID");
    expect(again.json.error.details.reason).toBe("already_annulled");
  }, 30_000);

  test("a note modifying several documents defaults to CodRef 3 on each (an annulment has a single reference)", async () => {
    const docs = [await emit(emitBody(33)), await emit(emitBody(33))];
    const refs = docs.map((d) => ({ tipo_doc: 33, folio: d.json.data.folio, fecha: d.json.data.fecha, razon: "Descuento" }));
    const note = await emit(emitBody(61, { referencias: refs }));
    expect(note.status).toBe(201);
    expect(note.json.data.monto_total).toBe(docs[0]!.json.data.monto_total);
    const detail = await h.call("GET", `/v1/dte/${note.json.data.id}`, { key: t.key.key });
    expect(detail.json.data.referencias.map((r: { codigo: number }) => r.codigo)).toEqual([3, 3]);
    // neither document was annulled by it
    const ref = { tipo_doc: 33, folio: docs[0]!.json.data.folio, fecha: docs[0]!.json.data.fecha, razon: "Anula", codigo: 1 };
    expect((await emit(emitBody(61, { referencia: ref }))).status).toBe(201);
  }, 30_000);

  test("REFERENCE_INVALID when a note contradicts the own document it references: date, annulled total, credit above the total", async () => {
    const original = await emit(emitBody(33));
    const { folio, fecha, monto_total } = original.json.data;
    const ref = (patch: Record<string, unknown>) => ({ tipo_doc: 33, folio, fecha, razon: "Ajuste", ...patch });
    const oneLine = (precio: number) => [{ nombre: "Ajuste", cantidad: 1, precio }];
    const wrongDate = await emit(emitBody(61, { referencia: ref({ fecha: "2020-01-01" }) }));
    expectError(wrongDate, 422, "REFERENCE_INVALID");
    expect(wrongDate.json.error.details).toMatchObject({ reason: "date_mismatch", fecha });
    const annulsMore = await emit(emitBody(61, { referencia: ref({ codigo: 1 }), items: oneLine(9_999_999) }));
    expectError(annulsMore, 422, "REFERENCE_INVALID");
    expect(annulsMore.json.error.details).toMatchObject({ reason: "amount_mismatch", monto_total });
    const creditsMore = await emit(emitBody(61, { referencia: ref({ codigo: 3 }), items: oneLine(9_999_999) }));
    expectError(creditsMore, 422, "REFERENCE_INVALID");
    expect(creditsMore.json.error.details.reason).toBe("amount_exceeds");
    // a debit note may add more than the original total; a partial credit note is fine
    const debit = await emit(emitBody(56, { referencia: ref({ codigo: 3 }), items: oneLine(9_999_999) }));
    expect(debit.status).toBe(201);
    expect((await emit(emitBody(61, { referencia: ref({ codigo: 3 }), items: oneLine(1000) }))).status).toBe(201);
  }, 30_000);

  test("a note modifies a tax document: a CodRef on a purchase order → 422 not_allowed; only information lines → REFERENCE_INVALID", async () => {
    const onOrder = await emit(emitBody(61, { referencia: { tipo_doc: "801", folio: "OC-1", fecha: "2026-01-02", razon: "OC", codigo: 3 } }));
    expectError(onOrder, 422, "VALIDATION_ERROR");
    expect(onOrder.json.error.details).toMatchObject({ field: "referencia.codigo", reason: "not_allowed" });
    // a debit note annuls only a credit note
    const debitAnnuls = await emit(emitBody(56, { referencia: { tipo_doc: 33, folio: 1, fecha: "2026-01-02", razon: "Anula", codigo: 1 } }));
    expect(debitAnnuls.json.error.details).toMatchObject({ field: "referencia.codigo", reason: "not_allowed" });
    const onlyOrder = await emit(emitBody(61, { referencias: [{ tipo_doc: "801", folio: "OC-1", fecha: "2026-01-02", razon: "OC" }] }));
    expectError(onlyOrder, 422, "REFERENCE_INVALID");
    expect(onlyOrder.json.error.details.reason).toBe("missing");
    // a certification case: SET first (no CodRef), then the document issued elsewhere — the default CodRef goes there
    const set = await emit(
      emitBody(61, { referencias: [{ tipo_doc: "SET", folio: "0", fecha: "2026-01-02", razon: "CASO 1234-5" }, { tipo_doc: 33, folio: 999_001, fecha: "2026-01-02", razon: "Corrige", codigo: 3 }] }),
    );
    expect(set.status).toBe(201);
    const detail = await h.call("GET", `/v1/dte/${set.json.data.id}`, { key: t.key.key });
    expect(detail.json.data.referencias.map((r: { codigo?: number | null }) => r.codigo ?? null)).toEqual([null, 3]);
  }, 30_000);

  test("BUSINESS_NOT_AUTHORIZED: live emission without resolution, and without a live SII backend", async () => {
    const live = await createKey(h, t.user.token, t.business.id, ["*"], "live");
    const res = await emit(emitBody(33), live.key);
    expectError(res, 422, "BUSINESS_NOT_AUTHORIZED");
    const put = await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { resolucion: { numero: 80, fecha: "2014-08-22" } } });
    expect(put.status).toBe(200);
    const again = await emit(emitBody(33), live.key);
    expectError(again, 422, "BUSINESS_NOT_AUTHORIZED");
    expect(again.json.error.message).toContain("SII_MODE=sandbox");
  });
});
