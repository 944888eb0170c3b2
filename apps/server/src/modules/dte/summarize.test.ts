import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { documents } from "../../db/documents.js";
import { createKey, expectError, tenant } from "../../../test/support/fixtures.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../../test/support/emission.js";
import { chileDate } from "./chile-time.js";

// Amounts of emitBody: a 33 is neto 113 501 + IVA 21 565 = 135 066; a 39 (gross 113 501) is 95 379 + IVA 18 122.
describeDrivers("GET /v1/dte/resumen: the period's sales by tipo (an extension)", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  const today = chileDate(new Date());
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await emitter(h, { tipos: [33, 39, 61] });
    const emit = async (name: string, body: Record<string, unknown>) => {
      const res = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body });
      expect(res.status).toBe(201);
      ids[name] = res.json.data.id;
    };
    await emit("factura", emitBody(33));
    await emit("otra", emitBody(33));
    await emit("boleta", emitBody(39));
    await emit("rechazada", emitBody(33, { receptor: { ...RECEPTOR, razon_social: "X [sandbox:rechazo]" } }));
    const note = await h.call("POST", `/v1/dte/${ids.factura}/anular`, { key: t.key.key });
    expect(note.status).toBe(201);
    ids.nota = note.json.data.id;
    // Every one final now (the sandbox answers at once), so the counts below do not race the poller.
    for (const id of Object.values(ids)) await h.call("GET", `/v1/dte/${id}/status?refresh=true`, { key: t.key.key });
  }, 60_000);
  afterAll(async () => h?.close());

  const resumen = (query: string, key = t.key.key) => h.call("GET", `/v1/dte/resumen${query}`, { key });

  test("by tipo; credit notes subtract from the débito fiscal and the total; rejected documents are left out", async () => {
    const res = await resumen(`?desde=${today}&hasta=${today}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      desde: today,
      hasta: today,
      tipos: [
        { tipo: 33, documentos: 2, monto_neto: 227002, monto_exento: 0, monto_iva: 43130, monto_total: 270132 },
        { tipo: 39, documentos: 1, monto_neto: 95379, monto_exento: 0, monto_iva: 18122, monto_total: 113501 },
        { tipo: 61, documentos: 1, monto_neto: 113501, monto_exento: 0, monto_iva: 21565, monto_total: 135066 },
      ],
      debito_fiscal: 43130 + 18122 - 21565,
      total_neto_de_notas: 270132 + 113501 - 135066,
      impuestos_adicionales: [],
      rechazados: 1,
      sin_respuesta: 0,
    });
  });

  test("documents still waiting for the SII count, and are counted apart", async () => {
    await h.deps.db.update(documents).set({ estado: "ENVIADO" }).where(eq(documents.id, ids.boleta!));
    const res = await resumen(`?desde=${today}&hasta=${today}`);
    expect(res.json.data.sin_respuesta).toBe(1);
    expect(res.json.data.tipos[1]).toMatchObject({ tipo: 39, documentos: 1 });
  });

  test("a period without documents, another business, another environment: zeros", async () => {
    const empty = await resumen("?desde=2020-01-01&hasta=2020-01-31");
    expect(empty.json.data).toMatchObject({ tipos: [], debito_fiscal: 0, total_neto_de_notas: 0, rechazados: 0, sin_respuesta: 0 });
    const other = await tenant(h, "96790240-3");
    expect((await resumen(`?desde=${today}&hasta=${today}`, other.key.key)).json.data.tipos).toEqual([]);
    const live = await createKey(h, t.user.token, t.business.id, ["*"], "live");
    expect((await resumen(`?desde=${today}&hasta=${today}`, live.key)).json.data.tipos).toEqual([]);
  });

  test("additional taxes by code and rate, credit notes subtracted, rejected documents left out", async () => {
    const other = await emitter(h, { tipos: [33, 61], rut: "76354771-K" });
    const emit = async (items: unknown[], receptor = RECEPTOR) => {
      const res = await h.call("POST", "/v1/dte/emit", { key: other.key.key, body: emitBody(33, { items, receptor }) });
      expect(res.status).toBe(201);
      return res.json.data.id as string;
    };
    // 271: 45 360 × 18 % = 8 164.8; 25: 29 940 × 20.5 % = 6 137.7
    const a = await emit([{ nombre: "Bebida cola 3 L", cantidad: 24, precio: 1890, impuesto_adicional: 271 }, { nombre: "Vino", cantidad: 6, precio: 4990, impuesto_adicional: 25 }, { nombre: "Vasos", cantidad: 1, precio: 500 }]);
    const b = await emit([{ nombre: "Bebida cola 1,5 L", cantidad: 10, precio: 1000, impuesto_adicional: 271 }]);
    const rejected = await emit([{ nombre: "Agua", cantidad: 1, precio: 1000, impuesto_adicional: 27 }], { ...RECEPTOR, razon_social: "X [sandbox:rechazo]" });
    const note = await h.call("POST", `/v1/dte/${b}/anular`, { key: other.key.key });
    expect(note.status).toBe(201);
    for (const id of [a, b, rejected, note.json.data.id]) await h.call("GET", `/v1/dte/${id}/status?refresh=true`, { key: other.key.key });
    const res = await resumen(`?desde=${today}&hasta=${today}`, other.key.key);
    expect(res.json.data.impuestos_adicionales).toEqual([
      { codigo: 25, tasa: 20.5, base: 29940, monto: 6138 },
      { codigo: 271, tasa: 18, base: 45360, monto: 8165 },
    ]);
    expect(res.json.data.rechazados).toBe(1);
    // the taxes are in the totals: 33 = neto + IVA + taxes of both facturas; the note takes b's back
    const t33 = res.json.data.tipos.find((t: { tipo: number }) => t.tipo === 33);
    expect(t33.monto_total - t33.monto_neto - t33.monto_iva).toBe(8165 + 6138 + 1800);
  });

  test("the period is required and checked; dte:read is needed", async () => {
    const missing = await resumen(`?desde=${today}`);
    expectError(missing, 400, "INVALID_PARAMETER");
    expect(missing.json.error.details).toEqual({ field: "hasta", reason: "required" });
    expect((await resumen("?desde=2026-02-30&hasta=2026-03-01")).json.error.details).toEqual({ field: "desde", reason: "format" });
    expect((await resumen("?desde=2026-03-02&hasta=2026-03-01")).json.error.details).toEqual({ field: "hasta", reason: "minimum" });
    expectError(await h.call("GET", `/v1/dte/resumen?desde=${today}&hasta=${today}`), 401, "UNAUTHORIZED");
    const writer = await createKey(h, t.user.token, t.business.id, ["dte:write"]);
    const forbidden = await resumen(`?desde=${today}&hasta=${today}`, writer.key);
    expectError(forbidden, 403, "FORBIDDEN");
    expect(forbidden.json.error.details.required_permission).toBe("dte:read");
  });

  test("OpenAPI documents it", async () => {
    const spec = (await h.call("GET", "/v1/openapi.json")).json;
    // its query parameters (the headers every business route takes are shared `$ref`s)
    const query = spec.paths["/v1/dte/resumen"]?.get?.parameters?.filter((p: { in?: string }) => p.in === "query");
    expect(query.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual([["desde", true], ["hasta", true]]);
  });

  test("débito fiscal of a 46 is the IVA its issuer retains, of a 43 the IVA of the agent's commissions; their notes subtract", async () => {
    // Its own business (RUT), so the figures above stay as they are.
    const other = await emitter(h, { tipos: [43, 46, 61], rut: "76086428-5" });
    const emit = async (body: Record<string, unknown>) => {
      const res = await h.call("POST", "/v1/dte/emit", { key: other.key.key, body });
      expect(res.status, res.text).toBe(201);
      return res.json.data.id as string;
    };
    const seller = { ...RECEPTOR, rut: "11111111-1", razon_social: "Agricultor" };
    await emit({ tipo: 46, receptor: seller, items: [{ nombre: "Trigo", cantidad: 2, precio: 5000, retencion: 34 }] }); // IVA 1900, retained 400
    const total = await emit({ tipo: 46, receptor: seller, items: [{ nombre: "Chatarra", cantidad: 1, precio: 100000 }] }); // IVA 19000, all retained
    const liquidation = await emit({ tipo: 43, receptor: RECEPTOR, liquidacion: {
      documentos: [{ tipo_doc_liq: 33, nombre: "Ventas", monto: 234955 }, { tipo_doc_liq: 33, nombre: "Exento", monto: 55068, exento: true }],
      comisiones: [{ tipo: "C", descripcion: "Comisión", monto_neto: 4834 }], // IVA of the sales 44641, of the commission 918
    } });
    const period = `?desde=${today}&hasta=${today}`;
    const before = (await h.call("GET", `/v1/dte/resumen${period}`, { key: other.key.key })).json.data;
    expect(before.tipos).toEqual([
      { tipo: 43, documentos: 1, monto_neto: 234955, monto_exento: 55068, monto_iva: 44641, monto_total: 328912 },
      { tipo: 46, documentos: 2, monto_neto: 110000, monto_exento: 0, monto_iva: 20900, monto_total: 111500 },
    ]);
    expect(before.debito_fiscal).toBe(400 + 19000 + 918);
    for (const id of [total, liquidation]) expect((await h.call("POST", `/v1/dte/${id}/anular`, { key: other.key.key })).status).toBe(201);
    const after = (await h.call("GET", `/v1/dte/resumen${period}`, { key: other.key.key })).json.data;
    expect(after.debito_fiscal).toBe(400);
  }, 60_000);
});
