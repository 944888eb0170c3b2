import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verifyCaf } from "@timbre/core/caf";
import { createKey, expectError, tenant } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, drivers, type Harness } from "../../../test/support/harness.js";
import { chileToday } from "../../time.js";
import { loadCaf } from "./load-caf.js";

describeDrivers("POST /v1/sandbox/numerations", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof tenant>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox" });
    t = await tenant(h);
  }, 60_000);
  afterAll(async () => h?.close());

  const issue = (body: unknown, key = t.key.key) => h.call("POST", "/v1/sandbox/numerations", { key, body });

  test("issues consecutive, non-overlapping test ranges for the caller's business, stored like an upload", async () => {
    const first = await issue({ tipo: 33, cantidad: 10 });
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({
      business_id: t.business.id, tipo: 33, desde: 1, hasta: 10, siguiente_folio: 1, disponibles: 10, usados: 0,
      environment: "test", estado: "activa", fecha_autorizacion: chileToday(new Date()),
    });
    const second = await issue({ tipo: 33, cantidad: 5 });
    expect(second.json.data).toMatchObject({ desde: 11, hasta: 15 });
    expect((await issue({ tipo: 39, cantidad: 100000 })).json.data).toMatchObject({ desde: 1, hasta: 100000, vence_el: null });
    const listed = await h.call("GET", `/v1/businesses/${t.business.id}/numerations?tipo=33`, { key: t.key.key });
    expect(listed.json.pagination.total).toBe(2);
    const caf = await loadCaf(h.deps, first.json.data.id);
    expect(caf.rut).toBe("76192083-9");
    expect(caf.razonSocial).toBe("Comercial Ejemplo SpA");
    const gateway = await h.deps.sii();
    expect(() => verifyCaf(caf, gateway.authorities("test"))).not.toThrow();
    expect(() => verifyCaf(caf, gateway.authorities("live"))).toThrow();
  });

  test("concurrent requests still get disjoint ranges", async () => {
    const results = await Promise.all([issue({ tipo: 34, cantidad: 10 }), issue({ tipo: 34, cantidad: 10 })]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(results.map((r) => r.json.data.desde).sort((a: number, b: number) => a - b)).toEqual([1, 11]);
  });

  test("a session names the business with X-Business-Id", async () => {
    const res = await h.call("POST", "/v1/sandbox/numerations", { token: t.user.token, headers: { "x-business-id": t.business.id }, body: { tipo: 61, cantidad: 3 } });
    expect(res.status).toBe(201);
    expect(res.json.data.business_id).toBe(t.business.id);
    const other = await tenant(h);
    expectError(
      await h.call("POST", "/v1/sandbox/numerations", { token: other.user.token, headers: { "x-business-id": t.business.id }, body: { tipo: 61, cantidad: 3 } }),
      404,
      "NOT_FOUND",
    );
  });

  test("a sk_live_ key or a live session is refused (the sandbox is test-only) and no range is stored", async () => {
    const live = await createKey(h, t.user.token, t.business.id, ["*"], "live");
    expect(live.key.startsWith("sk_live_")).toBe(true);
    const byKey = await issue({ tipo: 52, cantidad: 5 }, live.key);
    expectError(byKey, 403, "FORBIDDEN");
    expect(byKey.json.error.details).toMatchObject({ reason: "live_environment", environment: "live" });
    const bySession = await h.call("POST", "/v1/sandbox/numerations", { token: t.user.token, headers: { "x-business-id": t.business.id, "x-environment": "live" }, body: { tipo: 52, cantidad: 5 } });
    expectError(bySession, 403, "FORBIDDEN");
    const stored = await h.call("GET", `/v1/businesses/${t.business.id}/numerations?tipo=52`, { token: t.user.token });
    expect(stored.json.pagination.total).toBe(0);
  });

  test("validation, 401 and 403", async () => {
    const zero = await issue({ tipo: 33, cantidad: 0 });
    expectError(zero, 422, "VALIDATION_ERROR");
    expect(zero.json.error.details).toMatchObject({ field: "cantidad", reason: "minimum" });
    expect((await issue({ tipo: 33, cantidad: 100001 })).json.error.details.reason).toBe("maximum");
    expect((await issue({ tipo: 47, cantidad: 1 })).json.error.details).toMatchObject({ field: "tipo", reason: "enum" });
    expect((await issue({ cantidad: 1 })).json.error.details).toMatchObject({ field: "tipo", reason: "required" });
    expectError(await h.call("POST", "/v1/sandbox/numerations", { body: { tipo: 33, cantidad: 1 } }), 401, "UNAUTHORIZED");
    const readOnly = await createKey(h, t.user.token, t.business.id, ["numerations:read"]);
    const forbidden = await issue({ tipo: 33, cantidad: 1 }, readOnly.key);
    expectError(forbidden, 403, "FORBIDDEN");
    expect(forbidden.json.error.details.required_permission).toBe("numerations:write");
  });
});

describe("POST /v1/sandbox/numerations outside sandbox mode", () => {
  let h: Harness;
  afterAll(async () => h?.close());
  test("does not exist (404 NOT_FOUND)", async () => {
    h = await createHarness(drivers[0] ?? "pglite", { SII_MODE: "certificacion" });
    const t = await tenant(h);
    expectError(await h.call("POST", "/v1/sandbox/numerations", { key: t.key.key, body: { tipo: 33, cantidad: 10 } }), 404, "NOT_FOUND");
  }, 60_000);
});
