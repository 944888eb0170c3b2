import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { createBusiness, createKey, expectError, signUp, tenant } from "../../../test/support/fixtures.js";

describeDrivers("token routes", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  test("create → 201 key object plus the key once; stored as hash, prefix and last4", async () => {
    const user = await signUp(h);
    const biz = await createBusiness(h, user.token);
    const res = await h.call("POST", "/v1/tokens", { token: user.token, body: { name: "ci", permissions: ["dte:read", "dte:write"], business_id: biz.id } });
    expect(res.status).toBe(201);
    const data = res.json.data;
    expect(data.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(data).toMatchObject({ name: "ci", environment: "test", permissions: ["dte:read", "dte:write"], business_id: biz.id, last_used_at: null, revoked_at: null });
    expect(data.id).toMatch(/^key_[0-9a-z]{26}$/);
    expect(data.prefix).toBe(data.key.slice(0, 12));
    expect(data.last4).toBe(data.key.slice(-4));
    const rows = await h.database.db.query.apiKeys.findMany();
    expect(JSON.stringify(rows)).not.toContain(data.key);
    const list = await h.call("GET", "/v1/tokens", { token: user.token });
    expect(list.text).not.toContain(data.key);
  });

  test("live keys start with sk_live_; session may name the business by X-Business-Id", async () => {
    const user = await signUp(h);
    const biz = await createBusiness(h, user.token);
    const res = await h.call("POST", "/v1/tokens", { token: user.token, headers: { "x-business-id": biz.id }, body: { name: "prod", permissions: ["*"], environment: "live" } });
    expect(res.status).toBe(201);
    expect(res.json.data.key).toStartWith("sk_live_");
  });

  test("create: missing name and business → 422 required; bad permission → enum; empty list → min_items", async () => {
    const user = await signUp(h);
    const missing = await h.call("POST", "/v1/tokens", { token: user.token, body: { permissions: ["dte:read"] } });
    expectError(missing, 422, "VALIDATION_ERROR");
    expect(missing.json.error.details).toMatchObject({ field: "name", reason: "required" });
    const noBiz = await h.call("POST", "/v1/tokens", { token: user.token, body: { name: "x", permissions: ["dte:read"] } });
    expect(noBiz.json.error.details).toMatchObject({ field: "business_id", reason: "required" });
    const bad = await h.call("POST", "/v1/tokens", { token: user.token, body: { name: "x", permissions: ["dte:read", "root"] } });
    expect(bad.json.error.details).toMatchObject({ field: "permissions[1]", reason: "enum" });
    const empty = await h.call("POST", "/v1/tokens", { token: user.token, body: { name: "x", permissions: [] } });
    expect(empty.json.error.details).toMatchObject({ field: "permissions", reason: "min_items" });
    const env = await h.call("POST", "/v1/tokens", { token: user.token, body: { name: "x", permissions: ["*"], environment: "prod" } });
    expect(env.json.error.details).toMatchObject({ field: "environment", reason: "enum" });
  });

  test("no escalation: a key mints only subsets, for its own business and environment", async () => {
    const t = await tenant(h);
    const limited = await createKey(h, t.user.token, t.business.id, ["tokens:write", "dte:read"]);
    const ok = await h.call("POST", "/v1/tokens", { key: limited.key, body: { name: "sub", permissions: ["dte:read"] } });
    expect(ok.status).toBe(201);
    expect(ok.json.data.business_id).toBe(t.business.id);
    const up = await h.call("POST", "/v1/tokens", { key: limited.key, body: { name: "up", permissions: ["dte:write"] } });
    expectError(up, 403, "FORBIDDEN");
    expect(up.json.error.details.required_permission).toBe("dte:write");
    expectError(await h.call("POST", "/v1/tokens", { key: limited.key, body: { name: "all", permissions: ["*"] } }), 403, "FORBIDDEN");
    expectError(await h.call("POST", "/v1/tokens", { key: limited.key, body: { name: "live", permissions: ["dte:read"], environment: "live" } }), 403, "FORBIDDEN");
    const other = await createBusiness(h, t.user.token, { rut: "60803000-K" });
    expectError(await h.call("POST", "/v1/tokens", { key: limited.key, body: { name: "o", permissions: ["dte:read"], business_id: other.id } }), 403, "FORBIDDEN");
  });

  test("create for another user's business → 404", async () => {
    const a = await tenant(h);
    const b = await signUp(h);
    expectError(await h.call("POST", "/v1/tokens", { token: b.token, body: { name: "x", permissions: ["*"], business_id: a.business.id } }), 404, "NOT_FOUND");
  });

  test("list: a session sees all its keys, a key only its business's; paginated", async () => {
    const user = await signUp(h);
    const b1 = await createBusiness(h, user.token);
    const b2 = await createBusiness(h, user.token, { rut: "60803000-K" });
    const k1 = await createKey(h, user.token, b1.id);
    await createKey(h, user.token, b1.id);
    await createKey(h, user.token, b2.id);
    const all = await h.call("GET", "/v1/tokens?limit=2", { token: user.token });
    expect(all.json.pagination).toEqual({ page: 1, limit: 2, total: 3, total_pages: 2 });
    expect(all.json.data).toHaveLength(2);
    const past = await h.call("GET", "/v1/tokens?page=9", { token: user.token });
    expect(past.json.data).toEqual([]);
    expect(past.json.pagination.total).toBe(3);
    const own = await h.call("GET", "/v1/tokens", { key: k1.key });
    expect(own.json.data.map((k: { business_id: string }) => k.business_id)).toEqual([b1.id, b1.id]);
    expectError(await h.call("GET", "/v1/tokens?limit=101", { token: user.token }), 400, "INVALID_PARAMETER");
    const bad = await h.call("GET", "/v1/tokens?page=0", { token: user.token });
    expectError(bad, 400, "INVALID_PARAMETER");
    expect(bad.json.error.details).toEqual({ field: "page", reason: "minimum" });
  });

  test("revoke → 200 {id, revoked, revoked_at}; the key stops working at once; twice keeps the date", async () => {
    const t = await tenant(h);
    const victim = await createKey(h, t.user.token, t.business.id);
    expect((await h.call("GET", "/v1/auth/me", { key: victim.key })).status).toBe(200);
    const res = await h.call("DELETE", `/v1/tokens/${victim.id}`, { token: t.user.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: victim.id, revoked: true });
    expectError(await h.call("GET", "/v1/auth/me", { key: victim.key }), 401, "UNAUTHORIZED");
    const again = await h.call("DELETE", `/v1/tokens/${victim.id}`, { token: t.user.token });
    expect(again.json.data.revoked_at).toBe(res.json.data.revoked_at);
  });

  test("no escalation on revoke: a tokens:write key cannot revoke a key holding more; it may revoke a subset", async () => {
    const t = await tenant(h);
    const revoker = await createKey(h, t.user.token, t.business.id, ["tokens:write", "tokens:read", "dte:read"]);
    const stronger = await createKey(h, t.user.token, t.business.id, ["*"]);
    const refused = await h.call("DELETE", `/v1/tokens/${stronger.id}`, { key: revoker.key });
    expectError(refused, 403, "FORBIDDEN");
    expect(refused.json.error.details.reason).toBe("escalation");
    expect((await h.call("GET", "/v1/auth/me", { key: stronger.key })).status).toBe(200);
    const weaker = await createKey(h, t.user.token, t.business.id, ["dte:read"]);
    expect((await h.call("DELETE", `/v1/tokens/${weaker.id}`, { key: revoker.key })).status).toBe(200);
    expectError(await h.call("GET", "/v1/auth/me", { key: weaker.key }), 401, "UNAUTHORIZED");
    // A session holds every permission: it revokes any key of its user.
    expect((await h.call("DELETE", `/v1/tokens/${stronger.id}`, { token: t.user.token })).status).toBe(200);
  });

  test("a test key neither sees nor revokes the live keys of its business", async () => {
    const t = await tenant(h);
    const live = await createKey(h, t.user.token, t.business.id, ["*"], "live");
    const seen = await h.call("GET", "/v1/tokens", { key: t.key.key });
    expect(seen.json.data.map((k: { id: string }) => k.id)).not.toContain(live.id);
    expectError(await h.call("DELETE", `/v1/tokens/${live.id}`, { key: t.key.key }), 404, "NOT_FOUND");
    expect((await h.call("GET", "/v1/tokens", { token: t.user.token })).json.data.map((k: { id: string }) => k.id)).toContain(live.id);
  });

  test("revoke: unknown id or another user's key → 404", async () => {
    const a = await tenant(h);
    const b = await tenant(h);
    expectError(await h.call("DELETE", "/v1/tokens/key_00000000000000000000000000", { token: a.user.token }), 404, "NOT_FOUND");
    expectError(await h.call("DELETE", `/v1/tokens/${b.key.id}`, { token: a.user.token }), 404, "NOT_FOUND");
    expectError(await h.call("DELETE", `/v1/tokens/${b.key.id}`, { key: a.key.key }), 404, "NOT_FOUND");
  });
});
