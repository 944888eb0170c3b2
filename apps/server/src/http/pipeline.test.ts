import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { businessBody, expectError, signUp, tenant } from "../../test/support/fixtures.js";
import { beginIdempotent, finishIdempotent, idempotencyScope, requestHash } from "./idempotency.js";
import { bodyFingerprint } from "./body-fingerprint.js";
import { idempotencyKeys } from "../db/idempotency-keys.js";

describeDrivers("request pipeline", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  test("Request-Id: minted as req_<ulid>, an incoming safe one honoured, an unsafe one replaced; repeated in errors", async () => {
    const minted = await h.call("GET", "/v1/health");
    expect(minted.headers.get("request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    const honoured = await h.call("GET", "/v1/nope", { headers: { "request-id": "client-123.abc" } });
    expect(honoured.headers.get("request-id")).toBe("client-123.abc");
    expect(honoured.json.error.request_id).toBe("client-123.abc");
    const unsafe = await h.call("GET", "/v1/health", { headers: { "request-id": "<script>" } });
    expect(unsafe.headers.get("request-id")).toMatch(/^req_/);
    const long = await h.call("GET", "/v1/health", { headers: { "request-id": "a".repeat(65) } });
    expect(long.headers.get("request-id")).toMatch(/^req_/);
  });

  test("unknown route → 404 envelope", async () => {
    const res = await h.call("GET", "/v1/definitely/not/here");
    expectError(res, 404, "NOT_FOUND");
    expect(Object.keys(res.json).sort()).toEqual(["error", "success"]);
  });

  test("JSON over 1 MiB → 413, by Content-Length and by actual size (streamed body)", async () => {
    const big = JSON.stringify({ email: "a@b.cl", password: "x".repeat(1024 * 1024), nombre: "n" });
    expectError(await h.call("POST", "/v1/auth/register", { raw: big, headers: { "content-type": "application/json" } }), 413, "PAYLOAD_TOO_LARGE");
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const res = await h.app.handle(new Request("http://localhost/v1/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body: stream }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  test("one structured log line per request, without bodies or credentials", async () => {
    const user = await signUp(h);
    h.logs.length = 0;
    await h.call("GET", "/v1/auth/me", { token: user.token, headers: { "request-id": "log-check-1" } });
    await Bun.sleep(20); // the line is written after the response is handed over
    const lines = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.request_id === "log-check-1");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", msg: "request", method: "GET", path: "/v1/auth/me", status: 200, request_id: "log-check-1" });
    expect(typeof lines[0]?.ms).toBe("number");
    expect(h.logs.join("\n")).not.toContain(user.token);
  });

  test("idempotency: same key + same body → the stored response replayed, nothing created twice", async () => {
    const user = await signUp(h);
    const opts = { token: user.token, body: businessBody({ rut: "96790240-3" }), headers: { "idempotency-key": "create-biz-1" } };
    const first = await h.call("POST", "/v1/businesses", opts);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await h.call("POST", "/v1/businesses", opts);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    // the same body written otherwise (key order, whitespace) is the same request
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(opts.body).reverse()), null, 2);
    const third = await h.call("POST", "/v1/businesses", { token: user.token, raw: reordered, headers: { ...opts.headers, "content-type": "application/json" } });
    expect(third.headers.get("idempotent-replayed")).toBe("true");
    const list = await h.call("GET", "/v1/businesses", { token: user.token });
    expect(list.json.pagination.total).toBe(1);
  });

  test("idempotency: same key + different body (or another route) → 422 IDEMPOTENCY_KEY_REUSED", async () => {
    const user = await signUp(h);
    const headers = { "idempotency-key": "k-reuse" };
    expect((await h.call("POST", "/v1/businesses", { token: user.token, headers, body: businessBody() })).status).toBe(201);
    expectError(await h.call("POST", "/v1/businesses", { token: user.token, headers, body: businessBody({ giro: "otro" }) }), 422, "IDEMPOTENCY_KEY_REUSED");
    expectError(await h.call("POST", "/v1/rut/validate", { token: user.token, headers, body: { rut: "76192083-9" } }), 422, "IDEMPOTENCY_KEY_REUSED");
  });

  test("idempotency: 4xx answers are replayed too; scopes do not mix between tenants", async () => {
    const a = await tenant(h);
    const b = await tenant(h);
    const headers = { "idempotency-key": "shared-key" };
    const body = { name: "x", permissions: ["*"], business_id: "biz_00000000000000000000000000" };
    const first = await h.call("POST", "/v1/tokens", { key: a.key.key, headers, body });
    expectError(first, 403, "FORBIDDEN");
    const replay = await h.call("POST", "/v1/tokens", { key: a.key.key, headers, body });
    expect(replay.status).toBe(403);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const other = await h.call("POST", "/v1/tokens", { key: b.key.key, headers, body: { name: "mine", permissions: ["dte:read"] } });
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });

  test("idempotency: a session naming another tenant's business never sees that tenant's stored answers", async () => {
    const victim = await tenant(h);
    const attacker = await signUp(h);
    const body = { rut: "76192083-9" };
    const headers = { "idempotency-key": "guessable" };
    expect((await h.call("POST", "/v1/rut/validate", { key: victim.key.key, headers, body })).status).toBe(200);
    const probe = await h.call("POST", "/v1/rut/validate", { token: attacker.token, headers: { ...headers, "x-business-id": victim.business.id }, body });
    expect(probe.headers.get("idempotent-replayed")).toBeNull();
  });

  test("idempotency: a request still running → 409 IDEMPOTENCY_IN_PROGRESS", async () => {
    const t = await tenant(h);
    const credential = { type: "api_key" as const, userId: t.user.userId, keyId: t.key.id, keyName: "x", businessId: t.business.id, environment: "test" as const, permissions: [] };
    const body = JSON.stringify({ rut: "76192083-9" });
    await h.database.db.insert(idempotencyKeys).values({
      scope: idempotencyScope(credential),
      key: "running",
      requestHash: requestHash("POST", "/v1/rut/validate", await bodyFingerprint(JSON.parse(body))),
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const res = await h.call("POST", "/v1/rut/validate", { key: t.key.key, headers: { "idempotency-key": "running", "content-type": "application/json" }, raw: body });
    expectError(res, 409, "IDEMPOTENCY_IN_PROGRESS");
  });

  test("idempotency: a 5xx releases the key; an expired record is replaced", async () => {
    const db = h.database.db;
    const mk = h.deps.secrets.masterKey;
    const base = { scope: "usr:test:5xx", key: "k", hash: "h1", nowMs: Date.now() };
    expect((await beginIdempotent(db, mk, base)).kind).toBe("started");
    await finishIdempotent(db, mk, base, 500, "{}");
    expect((await beginIdempotent(db, mk, base)).kind).toBe("started");
    await finishIdempotent(db, mk, base, 201, '{"ok":1}');
    expect(await beginIdempotent(db, mk, base)).toEqual({ kind: "replay", status: 201, body: '{"ok":1}', resourceId: null });
    const later = { ...base, hash: "h2", nowMs: base.nowMs + 25 * 3600_000 };
    expect((await beginIdempotent(db, mk, later)).kind).toBe("started");
  });

  test("idempotency: a malformed key → 400 INVALID_PARAMETER", async () => {
    const t = await tenant(h);
    const res = await h.call("POST", "/v1/rut/validate", { key: t.key.key, headers: { "idempotency-key": "x".repeat(256) }, body: { rut: "1-9" } });
    expectError(res, 400, "INVALID_PARAMETER");
  });

  test("a closed database → 503 UNAVAILABLE without SQL or stack, logged; health → 503 too", async () => {
    const broken = await createHarness(driver);
    const user = await signUp(broken);
    await broken.database.close();
    const res = await broken.call("GET", "/v1/auth/me", { token: user.token });
    expectError(res, 503, "UNAVAILABLE");
    expect(res.json.error.details).toEqual({ reason: "database" });
    expect(res.text).not.toMatch(/select|insert|at .*\.ts|stack/i);
    const health = await broken.call("GET", "/v1/health");
    expectError(health, 503, "UNAVAILABLE");
    expect(health.json.error.details).toMatchObject({ status: "unavailable", checks: { database: "unavailable" } });
    const errorLine = broken.logs.find((l) => l.includes('"level":"error"'));
    expect(errorLine).toBeDefined();
    await broken.close().catch(() => {});
  }, 30_000);
});
