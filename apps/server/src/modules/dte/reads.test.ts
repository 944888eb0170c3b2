import { afterAll, beforeAll, expect, test } from "bun:test";
import { createKey, expectError, tenant } from "../../../test/support/fixtures.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { sandboxCaf } from "../../../test/support/cafs.js";
import { emitBody, emitter, RECEPTOR, serveOverHttp } from "../../../test/support/emission.js";
import { chileDate } from "./chile-time.js";
import { renderCounts } from "./pdf-cache.js";

describeDrivers("GET /v1/dte and friends", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  let ids: string[] = [];
  const today = chileDate(new Date());
  const yesterday = chileDate(new Date(Date.now() - 24 * 3600 * 1000));
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await emitter(h, { tipos: [39] });
    // The 33s include one dated yesterday: its range must be authorised by then (the SII refuses a document dated
    // before its CAF, HED-3-305), unlike the sandbox's own, authorised today.
    const caf = await sandboxCaf(h, { tipo: 33, desde: 1, hasta: 100, fechaAutorizacion: yesterday });
    expect((await h.call("POST", `/v1/businesses/${t.business.id}/numerations`, { key: t.key.key, raw: caf, headers: { "content-type": "application/xml" } })).status).toBe(201);
    const bodies = [
      emitBody(33, { fecha: yesterday }),
      emitBody(33),
      emitBody(39),
      emitBody(33, { receptor: { ...RECEPTOR, rut: "77.777.777-7" } }),
      emitBody(39),
    ];
    ids = [];
    for (const body of bodies) {
      const res = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body });
      expect(res.status).toBe(201);
      ids.push(res.json.data.id);
    }
  }, 60_000);
  afterAll(async () => h?.close());

  const list = (query: string, key = t.key.key) => h.call("GET", `/v1/dte${query}`, { key });
  const idsOf = (res: { json: { data: Array<{ id: string }> } }): Array<string | undefined> => res.json.data.map((d) => d.id);

  test("newest first, paginated", async () => {
    const all = await list("");
    expect(all.status).toBe(200);
    expect(idsOf(all)).toEqual([...ids].reverse());
    expect(all.json.pagination).toEqual({ page: 1, limit: 20, total: 5, total_pages: 1 });
    const page2 = await list("?limit=2&page=2");
    expect(idsOf(page2)).toEqual([ids[2], ids[1]]);
    expect(page2.json.pagination).toEqual({ page: 2, limit: 2, total: 5, total_pages: 3 });
    const past = await list("?limit=2&page=9");
    expect(past.json.data).toEqual([]);
    expect(past.json.pagination.total).toBe(5);
  });

  test("filters: tipo, desde/hasta (inclusive, on fecha), estado, folio, receptor_rut", async () => {
    expect(idsOf(await list("?tipo=39"))).toEqual([ids[4], ids[2]]);
    expect(idsOf(await list(`?hasta=${yesterday}`))).toEqual([ids[0]]);
    expect(idsOf(await list(`?desde=${today}&tipo=33`))).toEqual([ids[3], ids[1]]);
    expect(idsOf(await list(`?desde=${yesterday}&hasta=${yesterday}`))).toEqual([ids[0]]);
    expect((await list("?estado=ENVIADO")).json.pagination.total).toBe(5);
    expect((await list("?estado=ACEPTADO")).json.data).toEqual([]);
    expect(idsOf(await list("?tipo=33&folio=2"))).toEqual([ids[1]]);
    expect(idsOf(await list("?receptor_rut=77777777-7"))).toEqual([ids[3]]);
  });

  test("bad parameters → 400 INVALID_PARAMETER naming the parameter", async () => {
    for (const [query, field] of [["?tipo=47", "tipo"], ["?desde=2026-13-01", "desde"], ["?hasta=ayer", "hasta"], ["?estado=NUEVO", "estado"], ["?folio=-1", "folio"], ["?receptor_rut=1-2", "receptor_rut"], ["?limit=500", "limit"], ["?page=0", "page"]] as const) {
      const res = await list(query);
      expectError(res, 400, "INVALID_PARAMETER");
      expect(res.json.error.details.field).toBe(field);
    }
  });

  test("GET /dte/:id: emission fields, the whole receptor, options, items with monto, referencias, historial", async () => {
    const res = await h.call("GET", `/v1/dte/${ids[1]}`, { key: t.key.key });
    expect(res.status).toBe(200);
    const d = res.json.data;
    expect(d).toMatchObject({ id: ids[1], tipo: 33, folio: 2, estado: "ENVIADO", fecha: today, monto_total: 135066, precios_brutos: false });
    // Everything a note correcting it needs (the dashboard starts one from here), not only the list's rut and name.
    expect(d.receptor).toEqual(RECEPTOR);
    expect(d).not.toHaveProperty("forma_pago");
    const boleta = (await h.call("GET", `/v1/dte/${ids[2]}`, { key: t.key.key })).json.data;
    expect(boleta).toMatchObject({ tipo: 39, precios_brutos: true, receptor: { rut: "66666666-6", razon_social: "Consumidor final" } });
    // A receptor RUT sent with dots is shown as stored (normalized), like the list shows it.
    expect((await h.call("GET", `/v1/dte/${ids[3]}`, { key: t.key.key })).json.data.receptor).toEqual({ ...RECEPTOR, rut: "77777777-7" });
    expect(d.items).toEqual([
      { nombre: "Servicio de consultoría", cantidad: 2, precio: 50000, exento: false, monto: 100000 },
      { nombre: "Licencia", cantidad: 1.5, precio: 10000.5, descuento_porcentaje: 10, exento: false, monto: 13501 },
    ]);
    expect(d.referencias).toEqual([]);
    expect(d.historial.map((e: { estado: string }) => e.estado)).toEqual(["PENDIENTE", "ENVIADO"]);
    expect(new Date(d.fecha_emision).toISOString()).toBe(d.fecha_emision);
  });

  test("PDF over HTTP: inline, named, carta/termica/cedible, rendered once per variant", async () => {
    const http = serveOverHttp(h);
    try {
      const id = ids[1] ?? "";
      const first = await http.call("GET", `/v1/dte/${id}/pdf`, { key: t.key.key });
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toBe("application/pdf");
      expect(first.headers.get("content-disposition")).toBe('inline; filename="DTE-33-2.pdf"');
      expect(first.headers.get("Request-Id")).toMatch(/^req_/);
      expect(new TextDecoder().decode(first.bytes.slice(0, 5))).toBe("%PDF-");
      const again = await http.call("GET", `/v1/dte/${id}/pdf?formato=carta`, { key: t.key.key });
      expect(again.bytes).toEqual(first.bytes);
      expect(renderCounts.get(`${id}|carta|normal`)).toBe(1);
      const termica = await http.call("GET", `/v1/dte/${id}/pdf?formato=termica`, { key: t.key.key });
      expect(termica.status).toBe(200);
      expect(termica.bytes).not.toEqual(first.bytes);
      const cedible = await http.call("GET", `/v1/dte/${id}/pdf?cedible=true`, { key: t.key.key });
      expect(cedible.bytes).not.toEqual(first.bytes);
      const boleta = await http.call("GET", `/v1/dte/${ids[2]}/pdf?formato=termica`, { key: t.key.key });
      expect(boleta.status).toBe(200);
      expect(boleta.headers.get("content-disposition")).toBe('inline; filename="DTE-39-1.pdf"');
      // a boleta has no cedible copy: refused, not a normal copy passed off as one
      const cedibleBoleta = await h.call("GET", `/v1/dte/${ids[2]}/pdf?formato=termica&cedible=true`, { key: t.key.key });
      expectError(cedibleBoleta, 400, "INVALID_PARAMETER");
      expect(cedibleBoleta.json.error.details).toEqual({ field: "cedible", reason: "not_allowed" });
      expect(cedibleBoleta.json.error.message).toContain("tipo 39");
      expect((await h.call("GET", `/v1/dte/${ids[2]}/pdf?cedible=false`, { key: t.key.key })).status).toBe(200);
      expectError(await h.call("GET", `/v1/dte/${id}/pdf?formato=a4`, { key: t.key.key }), 400, "INVALID_PARAMETER");
    } finally {
      await http.close();
    }
  }, 30_000);

  test("PDF: requests for the same variant at once share one render (no 429 from the business's PDF bound)", async () => {
    const id = ids[0] ?? "";
    const key = `${id}|termica|normal`;
    const before = renderCounts.get(key) ?? 0;
    const answers = await Promise.all(Array.from({ length: 4 }, () => h.call("GET", `/v1/dte/${id}/pdf?formato=termica`, { key: t.key.key })));
    expect(answers.map((a) => [a.status, a.json?.error?.details?.reason])).toEqual(Array(4).fill([200, undefined]));
    expect(renderCounts.get(key)).toBe(before + 1);
  }, 30_000);

  test("401 without credential, 403 without permission, 404 for unknown ids, other tenants and environments", async () => {
    const id = ids[0] ?? "";
    const routes: Array<[string, string]> = [
      ["GET", "/v1/dte"],
      ["GET", `/v1/dte/${id}`],
      ["GET", `/v1/dte/${id}/status`],
      ["GET", `/v1/dte/${id}/pdf`],
      ["GET", `/v1/dte/${id}/xml`],
      ["POST", "/v1/dte/emit"],
      ["POST", "/v1/dte/batch"],
      ["POST", "/v1/dte/preview"],
      ["POST", `/v1/dte/${id}/anular`],
    ];
    const readOnly = await createKey(h, t.user.token, t.business.id, ["dte:read"]);
    const writeOnly = await createKey(h, t.user.token, t.business.id, ["dte:write"]);
    for (const [method, path] of routes) {
      expectError(await h.call(method, path, { body: {} }), 401, "UNAUTHORIZED");
      const wrong = method === "GET" ? writeOnly.key : readOnly.key;
      const forbidden = await h.call(method, path, { key: wrong, body: {} });
      expectError(forbidden, 403, "FORBIDDEN");
      expect(forbidden.json.error.details.required_permission).toBe(method === "GET" ? "dte:read" : "dte:write");
    }
    const other = await tenant(h, "22222222-2");
    const live = await createKey(h, t.user.token, t.business.id, ["*"], "live");
    for (const [method, path] of routes.filter(([, p]) => p.includes(id))) {
      expectError(await h.call(method, path, { key: other.key.key, body: {} }), 404, "NOT_FOUND");
      expectError(await h.call(method, path, { key: live.key, body: {} }), 404, "NOT_FOUND");
      expectError(await h.call(method, path.replace(id, "dte_0000000000000000000000000x"), { key: t.key.key, body: {} }), 404, "NOT_FOUND");
    }
    expect((await list("", other.key.key)).json.data).toEqual([]);
    // a session names the business by header and sees the same documents
    const session = await h.call("GET", `/v1/dte/${id}`, { token: t.user.token, headers: { "X-Business-Id": t.business.id } });
    expect(session.status).toBe(200);
  }, 30_000);

  test("bad flags are 400; the XML is served as stored, with its file name", async () => {
    expectError(await h.call("GET", `/v1/dte/${ids[0]}/xml?envio=maybe`, { key: t.key.key }), 400, "INVALID_PARAMETER");
    expectError(await h.call("GET", `/v1/dte/${ids[0]}/status?refresh=si`, { key: t.key.key }), 400, "INVALID_PARAMETER");
    const xml = await h.call("GET", `/v1/dte/${ids[0]}/xml`, { key: t.key.key });
    expect(xml.headers.get("content-disposition")).toBe('inline; filename="DTE-33-1.xml"');
    expect(xml.text).toStartWith('<?xml version="1.0" encoding="ISO-8859-1"?>');
  });

  test("OpenAPI documents every /dte route", async () => {
    const res = await h.call("GET", "/v1/openapi.json");
    const paths = Object.keys(res.json.paths).filter((p) => p.startsWith("/v1/dte"));
    expect(paths.sort()).toEqual(["/v1/dte", "/v1/dte/batch", "/v1/dte/batch/preview", "/v1/dte/emit", "/v1/dte/preview", "/v1/dte/resumen", "/v1/dte/{id}", "/v1/dte/{id}/aceptacion", "/v1/dte/{id}/anular", "/v1/dte/{id}/enviar", "/v1/dte/{id}/pdf", "/v1/dte/{id}/status", "/v1/dte/{id}/xml"]);
    expect(res.json.paths["/v1/dte/emit"].post.requestBody.content["application/json"]).toBeDefined();
  });
});

describeDrivers("documents of a deleted business (tax law: kept and downloadable by the owner)", (driver) => {
  let h: Harness;
  afterAll(async () => h?.close());

  test("the owner's session still reads them; nothing new can be emitted", async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    const t = await emitter(h, { tipos: [33] });
    const emitted = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33) });
    expect(emitted.status).toBe(201);
    const id = emitted.json.data.id;
    expect((await h.call("DELETE", `/v1/businesses/${t.business.id}`, { token: t.user.token })).status).toBe(200);
    const session = { token: t.user.token, headers: { "x-business-id": t.business.id } };
    expect((await h.call("GET", `/v1/dte/${id}`, session)).json.data.id).toBe(id);
    expect((await h.call("GET", "/v1/dte", session)).json.data.map((d: { id: string }) => d.id)).toEqual([id]);
    const pdf = await h.call("GET", `/v1/dte/${id}/pdf`, session);
    expect(pdf.status).toBe(200);
    expect(pdf.text.startsWith("%PDF-")).toBe(true);
    expect((await h.call("GET", `/v1/dte/${id}/xml`, session)).status).toBe(200);
    expect((await h.call("GET", "/v1/events", session)).status).toBe(200);
    expectError(await h.call("POST", "/v1/dte/emit", { ...session, body: emitBody(33) }), 404, "NOT_FOUND");
    // its API key was revoked with the business
    expectError(await h.call("GET", `/v1/dte/${id}`, { key: t.key.key }), 401, "UNAUTHORIZED");
  }, 60_000);
});
