import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { expectError, tenant } from "../../../test/support/fixtures.js";

describeDrivers("utility routes", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  test("GET /health without a key → 200 {status, version, uptime_s, checks}", async () => {
    const res = await h.call("GET", "/v1/health");
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ status: "ok", version: "0.1.0", uptime_s: expect.any(Number), checks: { database: "ok", tax_authority: "ok" } });
    expect(res.headers.get("ratelimit")).toBeNull();
  });

  test("POST /rut/validate: valid in any writing, invalid → valid:false with the expected digit", async () => {
    const t = await tenant(h);
    const ok = await h.call("POST", "/v1/rut/validate", { key: t.key.key, body: { rut: "76.192.083-9" } });
    expect(ok.json.data).toEqual({ valid: true, rut: "76192083-9", formateado: "76.192.083-9", dv_esperado: "9" });
    const k = await h.call("POST", "/v1/rut/validate", { key: t.key.key, body: { rut: "60803000k" } });
    expect(k.json.data).toMatchObject({ valid: true, rut: "60803000-K" });
    const bad = await h.call("POST", "/v1/rut/validate", { key: t.key.key, body: { rut: "76192083-8" } });
    expect(bad.status).toBe(200);
    expect(bad.json.data).toEqual({ valid: false, rut: null, formateado: null, dv_esperado: "9" });
    const junk = await h.call("POST", "/v1/rut/validate", { key: t.key.key, body: { rut: "hello" } });
    expect(junk.json.data).toEqual({ valid: false, rut: null, formateado: null, dv_esperado: null });
  });

  test("POST /rut/validate: missing rut → 422 required; wrong type → type; no key → 401", async () => {
    const t = await tenant(h);
    const missing = await h.call("POST", "/v1/rut/validate", { key: t.key.key, body: {} });
    expectError(missing, 422, "VALIDATION_ERROR");
    expect(missing.json.error.details).toMatchObject({ field: "rut", reason: "required" });
    const num = await h.call("POST", "/v1/rut/validate", { key: t.key.key, body: { rut: 76192083 } });
    expect(num.json.error.details).toMatchObject({ field: "rut", reason: "type" });
    expectError(await h.call("POST", "/v1/rut/validate", { body: { rut: "1-9" } }), 401, "UNAUTHORIZED");
  });

  test("OpenAPI 3.1 at /v1/openapi.json lists every route; docs at /v1/docs", async () => {
    const res = await h.call("GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.json.openapi).toStartWith("3.");
    const paths = Object.keys(res.json.paths).sort();
    // the contract's paths exactly: no trailing slash on a collection (a generated client would call `/v1/dte/`)
    expect(paths.filter((p) => p.endsWith("/"))).toEqual([]);
    for (const p of ["/v1/dte", "/v1/events"]) expect(Object.keys(res.json.paths[p] ?? {})).toContain("get");
    for (const p of ["/v1/health", "/v1/rut/validate", "/v1/auth/register", "/v1/auth/login", "/v1/auth/refresh", "/v1/auth/me", "/v1/tokens", "/v1/businesses", "/v1/businesses/{id}", "/v1/businesses/{id}/certificate", "/v1/businesses/{id}/webhook-secret"]) {
      expect(paths).toContain(p);
    }
    for (const [path, method] of [["/v1/auth/register", "post"], ["/v1/tokens", "post"], ["/v1/businesses", "post"], ["/v1/businesses/{id}", "put"], ["/v1/rut/validate", "post"]]) {
      const schema = res.json.paths[path ?? ""]?.[method ?? ""]?.requestBody?.content?.["application/json"]?.schema;
      expect(schema?.type === "object" ? path : `no JSON body schema: ${method} ${path}`).toBe(path);
    }
    expect(res.json.paths["/v1/businesses"].post.requestBody.content["application/json"].schema.required).toContain("rut");
    // the one price rule, said where a generated client's reader looks
    // (the body is any of the tipos' shapes; the classic one first)
    const emit = res.json.paths["/v1/dte/emit"].post.requestBody.content["application/json"].schema.anyOf[0];
    expect(emit.properties.precios_brutos.description).toContain("Default false: prices are net");
    expect(emit.properties.precios_brutos.description).toContain("send `precios_brutos: true` explicitly");
    const docs = await h.app.handle(new Request("http://localhost/v1/docs"));
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toContain("text/html");
    // the reference page loads its scripts from this server (works offline), never from a CDN
    const html = await docs.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(sources.filter((s) => /^https?:/.test(s))).toEqual([]);
    for (const asset of sources.filter((s) => s.startsWith("/v1/docs/assets/"))) {
      const res = await h.app.handle(new Request(`http://localhost${asset}`));
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
    expect(sources.filter((s) => s.startsWith("/v1/docs/assets/")).length).toBe(2);
    expect(html).toContain('"url":"/v1/openapi.json"');
    expect((await h.app.handle(new Request("http://localhost/v1/docs/assets/..%2Fpackage.json"))).status).toBe(404);
  });
});
