import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { expectError, signUp, tenant } from "../../../test/support/fixtures.js";

describeDrivers("auth routes", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  test("register → 201 with user, token pair, Bearer, 900 s; password stored as argon2id", async () => {
    const res = await h.call("POST", "/v1/auth/register", { body: { email: "Ana@Example.com", password: "0123456789", nombre: "Ana" } });
    expect(res.status).toBe(201);
    expect(res.json.success).toBe(true);
    expect(res.json.data.user).toMatchObject({ email: "ana@example.com", nombre: "Ana" });
    expect(res.json.data.user.id).toMatch(/^usr_[0-9a-z]{26}$/);
    expect(res.json.data.token_type).toBe("Bearer");
    expect(res.json.data.expires_in).toBe(900);
    expect(res.text).not.toContain("$argon2");
    const [row] = await h.database.db.query.users.findMany();
    expect(row?.passwordHash.startsWith("$argon2id$")).toBe(true);
  });

  test("register: duplicate email → 409 CONFLICT", async () => {
    const res = await h.call("POST", "/v1/auth/register", { body: { email: "ana@example.com", password: "0123456789", nombre: "Ana 2" } });
    expectError(res, 409, "CONFLICT");
  });

  test("register: missing fields → 422 required, every problem listed", async () => {
    const res = await h.call("POST", "/v1/auth/register", { body: { password: "short" } });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details.field).toBe("email");
    expect(res.json.error.details.reason).toBe("required");
    const fields = res.json.error.details.errors.map((e: { field: string; reason: string }) => `${e.field}:${e.reason}`);
    expect(fields).toEqual(expect.arrayContaining(["email:required", "password:min_length", "nombre:required"]));
  });

  test("register: malformed JSON → 400 INVALID_JSON; wrong content type → 400", async () => {
    expectError(await h.call("POST", "/v1/auth/register", { raw: "{nope", headers: { "content-type": "application/json" } }), 400, "INVALID_JSON");
    expectError(await h.call("POST", "/v1/auth/register", { raw: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } }), 400, "INVALID_JSON");
  });

  test("login → 200; wrong password and unknown email give the same 401 INVALID_CREDENTIALS", async () => {
    const ok = await h.call("POST", "/v1/auth/login", { body: { email: "ANA@example.com", password: "0123456789" } });
    expect(ok.status).toBe(200);
    expect(ok.json.data.access_token).toBeString();
    const wrong = await h.call("POST", "/v1/auth/login", { body: { email: "ana@example.com", password: "nope-nope-nope" } });
    const unknown = await h.call("POST", "/v1/auth/login", { body: { email: "ghost@example.com", password: "nope-nope-nope" } });
    expectError(wrong, 401, "INVALID_CREDENTIALS");
    expectError(unknown, 401, "INVALID_CREDENTIALS");
    expect(wrong.json.error.message).toBe(unknown.json.error.message);
  });

  test("login: missing password → 422 required", async () => {
    const res = await h.call("POST", "/v1/auth/login", { body: { email: "ana@example.com" } });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details).toMatchObject({ field: "password", reason: "required" });
  });

  test("login: 10 failures per email in 15 min → 429 even with the right password", async () => {
    const user = await signUp(h);
    for (let i = 0; i < 10; i++) {
      expectError(await h.call("POST", "/v1/auth/login", { body: { email: user.email, password: "wrong-password" } }), 401, "INVALID_CREDENTIALS");
    }
    const blocked = await h.call("POST", "/v1/auth/login", { body: { email: user.email, password: user.password } });
    expectError(blocked, 429, "RATE_LIMITED");
    expect(blocked.json.error.details.retry_after).toBeGreaterThan(0);
    expect(blocked.headers.get("retry-after")).toBe(String(blocked.json.error.details.retry_after));
  });

  test("refresh rotates; presenting the old token again revokes the whole family", async () => {
    const user = await signUp(h);
    const first = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: user.refresh } });
    expect(first.status).toBe(200);
    const second = first.json.data.refresh_token as string;
    expect(second).not.toBe(user.refresh);
    expectError(await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: user.refresh } }), 401, "UNAUTHORIZED");
    // The reuse killed the family: the newest token is dead too.
    expectError(await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: second } }), 401, "UNAUTHORIZED");
  });

  test("a revoked family's access tokens stop working at once (401); another login of the user keeps working", async () => {
    const user = await signUp(h);
    const otherLogin = await h.call("POST", "/v1/auth/login", { body: { email: user.email, password: user.password } });
    expect(otherLogin.status).toBe(200);
    const rotated = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: user.refresh } });
    const rotatedAccess = rotated.json.data.access_token as string;
    // Rotation alone keeps both access tokens of the family alive.
    expect((await h.call("GET", "/v1/auth/me", { token: user.token })).status).toBe(200);
    expect((await h.call("GET", "/v1/auth/me", { token: rotatedAccess })).status).toBe(200);
    // Reuse of the retired refresh token revokes the family.
    expectError(await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: user.refresh } }), 401, "UNAUTHORIZED");
    expectError(await h.call("GET", "/v1/auth/me", { token: user.token }), 401, "UNAUTHORIZED");
    expectError(await h.call("GET", "/v1/auth/me", { token: rotatedAccess }), 401, "UNAUTHORIZED");
    expect((await h.call("GET", "/v1/auth/me", { token: otherLogin.json.data.access_token })).status).toBe(200);
  });

  test("refresh: unknown token → 401; missing → 422 required", async () => {
    expectError(await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: "rt_nope" } }), 401, "UNAUTHORIZED");
    const res = await h.call("POST", "/v1/auth/refresh", { body: {} });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details).toMatchObject({ field: "refresh_token", reason: "required" });
  });

  test("me with a session and with an API key", async () => {
    const t = await tenant(h);
    const session = await h.call("GET", "/v1/auth/me", { token: t.user.token });
    expect(session.status).toBe(200);
    expect(session.json.data).toEqual({ user: expect.objectContaining({ id: t.user.userId }), auth: { type: "session" } });
    const viaKey = await h.call("GET", "/v1/auth/me", { key: t.key.key });
    expect(viaKey.json.data.auth).toMatchObject({ type: "api_key", key: { id: t.key.id, environment: "test", business_id: t.business.id } });
    const viaBearerKey = await h.call("GET", "/v1/auth/me", { headers: { authorization: `Bearer ${t.key.key}` } });
    expect(viaBearerKey.status).toBe(200);
  });

  test("me: no credential, garbage token, tampered JWT → 401", async () => {
    const t = await tenant(h);
    expectError(await h.call("GET", "/v1/auth/me"), 401, "UNAUTHORIZED");
    expectError(await h.call("GET", "/v1/auth/me", { token: "not-a-jwt" }), 401, "UNAUTHORIZED");
    expectError(await h.call("GET", "/v1/auth/me", { token: t.user.token.slice(0, -2) + "xx" }), 401, "UNAUTHORIZED");
    expectError(await h.call("GET", "/v1/auth/me", { key: "sk_test_" + "a".repeat(32) }), 401, "UNAUTHORIZED");
  });
});
