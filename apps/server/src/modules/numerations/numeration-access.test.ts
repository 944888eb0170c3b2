import { afterAll, beforeAll, expect, test } from "bun:test";
import { sandboxCaf } from "../../../test/support/cafs.js";
import { createBusiness, createKey, expectError, tenant } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";

describeDrivers("numerations: list, get, access", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof tenant>>;
  let other: Awaited<ReturnType<typeof tenant>>;
  let list: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await createHarness(driver);
    t = await tenant(h);
    other = await tenant(h);
    list = `/v1/businesses/${t.business.id}/numerations`;
    const cafs = {
      activa: await sandboxCaf(h, { tipo: 33, desde: 101, hasta: 200, fechaAutorizacion: new Date().toISOString().slice(0, 10) }),
      vencida: await sandboxCaf(h, { tipo: 33, desde: 1, hasta: 100, fechaAutorizacion: "2025-01-10" }),
      boleta: await sandboxCaf(h, { tipo: 39, desde: 1, hasta: 50, fechaAutorizacion: "2025-01-10" }),
    };
    for (const [name, xml] of Object.entries(cafs)) {
      const res = await h.call("POST", list, { key: t.key.key, body: { caf_xml: xml } });
      expect(res.status).toBe(201);
      ids[name] = res.json.data.id;
    }
  }, 60_000);
  afterAll(async () => h?.close());

  test("list: paginated, newest first, filters tipo and estado (live: an old FA 33 is vencida, a 39 never expires)", async () => {
    const all = await h.call("GET", list, { key: t.key.key });
    expect(all.status).toBe(200);
    expect(all.json.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1 });
    const order = all.json.data.map((n: { id: string }) => n.id);
    expect([...order].sort()).toEqual([ids.boleta, ids.vencida, ids.activa].sort());
    const created = all.json.data.map((n: { created_at: string }) => n.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    const page2 = await h.call("GET", `${list}?limit=2&page=2`, { key: t.key.key });
    expect(page2.json.data.map((n: { id: string }) => n.id)).toEqual([order[2]]);
    const byTipo = await h.call("GET", `${list}?tipo=39`, { key: t.key.key });
    expect(byTipo.json.data.map((n: { id: string }) => n.id)).toEqual([ids.boleta]);
    const vencidas = await h.call("GET", `${list}?estado=vencida`, { key: t.key.key });
    expect(vencidas.json.data.map((n: { id: string; estado: string }) => [n.id, n.estado])).toEqual([[ids.vencida, "vencida"]]);
    const activas = await h.call("GET", `${list}?estado=activa&tipo=33`, { key: t.key.key });
    expect(activas.json.data.map((n: { id: string }) => n.id)).toEqual([ids.activa]);
    expectError(await h.call("GET", `${list}?tipo=abc`, { key: t.key.key }), 400, "INVALID_PARAMETER");
    expectError(await h.call("GET", `${list}?estado=rota`, { key: t.key.key }), 400, "INVALID_PARAMETER");
    expectError(await h.call("GET", `${list}?limit=500`, { key: t.key.key }), 400, "INVALID_PARAMETER");
  });

  test("get one; a session sees its user's numerations in the environment of X-Environment (default test)", async () => {
    const res = await h.call("GET", `/v1/numerations/${ids.activa}`, { key: t.key.key });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: ids.activa, tipo: 33, desde: 101, hasta: 200, estado: "activa", business_id: t.business.id });
    expect((await h.call("GET", `/v1/numerations/${ids.activa}`, { token: t.user.token })).status).toBe(200);
    expect((await h.call("GET", list, { token: t.user.token })).json.pagination.total).toBe(3);
    expectError(await h.call("GET", `/v1/numerations/${ids.activa}`, { token: t.user.token, headers: { "x-environment": "live" } }), 404, "NOT_FOUND");
    expect((await h.call("GET", list, { token: t.user.token, headers: { "x-environment": "live" } })).json.data).toEqual([]);
  });

  test("401 without a key and with a revoked key", async () => {
    expectError(await h.call("GET", list), 401, "UNAUTHORIZED");
    expectError(await h.call("POST", list, { body: {} }), 401, "UNAUTHORIZED");
    const doomed = await createKey(h, t.user.token, t.business.id);
    expect((await h.call("DELETE", `/v1/tokens/${doomed.id}`, { token: t.user.token })).status).toBe(200);
    expectError(await h.call("GET", `/v1/numerations/${ids.activa}`, { key: doomed.key }), 401, "UNAUTHORIZED");
  });

  test("403 without the permission names it", async () => {
    const readOnly = await createKey(h, t.user.token, t.business.id, ["numerations:read"]);
    const upload = await h.call("POST", list, { key: readOnly.key, body: { caf_xml: "x" } });
    expectError(upload, 403, "FORBIDDEN");
    expect(upload.json.error.details.required_permission).toBe("numerations:write");
    const noRead = await createKey(h, t.user.token, t.business.id, ["businesses:read"]);
    const get = await h.call("GET", `/v1/numerations/${ids.activa}`, { key: noRead.key });
    expectError(get, 403, "FORBIDDEN");
    expect(get.json.error.details.required_permission).toBe("numerations:read");
    expect((await h.call("GET", list, { key: readOnly.key })).status).toBe(200);
  });

  test("404 for another tenant's business and numeration, another business of the same user, and the other environment", async () => {
    expectError(await h.call("GET", list, { key: other.key.key }), 404, "NOT_FOUND");
    expectError(await h.call("POST", list, { key: other.key.key, body: { caf_xml: await sandboxCaf(h) } }), 404, "NOT_FOUND");
    expectError(await h.call("GET", `/v1/numerations/${ids.activa}`, { key: other.key.key }), 404, "NOT_FOUND");
    expectError(await h.call("GET", `/v1/numerations/${ids.activa}`, { token: other.user.token }), 404, "NOT_FOUND");
    const second = await createBusiness(h, t.user.token, { rut: "11111111-1" });
    const secondKey = await createKey(h, t.user.token, second.id);
    expectError(await h.call("GET", `/v1/numerations/${ids.activa}`, { key: secondKey.key }), 404, "NOT_FOUND");
    expectError(await h.call("GET", list, { key: secondKey.key }), 404, "NOT_FOUND");
    const live = await createKey(h, t.user.token, t.business.id, ["*"], "live");
    expectError(await h.call("GET", `/v1/numerations/${ids.activa}`, { key: live.key }), 404, "NOT_FOUND");
    expect((await h.call("GET", list, { key: live.key })).json.data).toEqual([]);
    expectError(await h.call("GET", "/v1/numerations/caf_nope", { key: t.key.key }), 404, "NOT_FOUND");
  });

  test("the OpenAPI document lists the routes with their schemas", async () => {
    const doc = (await h.call("GET", "/v1/openapi.json")).json;
    const paths = doc.paths as Record<string, Record<string, { responses?: Record<string, unknown>; requestBody?: { content: Record<string, unknown> } }>>;
    expect(Object.keys(paths["/v1/businesses/{id}/numerations"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(paths["/v1/numerations/{id}"]?.get?.responses?.["200"]).toBeDefined();
    expect(Object.keys(paths["/v1/businesses/{id}/numerations"]?.post?.requestBody?.content ?? {})).toContain("multipart/form-data");
    expect(paths["/v1/sandbox/numerations"]?.post).toBeDefined();
    expect(JSON.stringify(paths["/v1/numerations/{id}"])).toContain("siguiente_folio");
  });
});
