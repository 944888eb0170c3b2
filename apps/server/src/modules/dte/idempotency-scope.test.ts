import { afterAll, beforeAll, expect, test } from "bun:test";
import { emitBody, emitter } from "../../../test/support/emission.js";
import { createKey, tenant } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";

// API.md §5: the scope of an Idempotency-Key is the business + environment, whatever the credential.
describeDrivers("Idempotency-Key scope across credentials", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await emitter(h, { tipos: [39] });
  }, 60_000);
  afterAll(async () => h?.close());

  const session = (environment = "test") => ({ token: t.user.token, headers: { "x-business-id": t.business.id, "x-environment": environment } });
  const countDocuments = async () => (await h.call("GET", "/v1/dte?tipo=39", { key: t.key.key })).json.pagination.total as number;

  test("a key then a session of the same business and environment: one document, the second call replays it", async () => {
    const body = emitBody(39);
    const before = await countDocuments();
    const first = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body, headers: { "idempotency-key": "key-then-session" } });
    expect([201, 202]).toContain(first.status);
    const second = await h.call("POST", "/v1/dte/emit", { ...session(), body, headers: { ...session().headers, "idempotency-key": "key-then-session" } });
    expect(second.status).toBe(first.status);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.json.data.id).toBe(first.json.data.id);
    expect(await countDocuments()).toBe(before + 1);
  });

  test("a session then another key of the business: replayed; a different body is IDEMPOTENCY_KEY_REUSED", async () => {
    const body = emitBody(39, { items: [{ nombre: "Otro", cantidad: 1, precio: 990 }] });
    const first = await h.call("POST", "/v1/dte/emit", { ...session(), body, headers: { ...session().headers, "idempotency-key": "session-then-key" } });
    expect([201, 202]).toContain(first.status);
    const otherKey = await createKey(h, t.user.token, t.business.id, ["dte:write", "dte:read"]);
    const replay = await h.call("POST", "/v1/dte/emit", { key: otherKey.key, body, headers: { "idempotency-key": "session-then-key" } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json.data.id).toBe(first.json.data.id);
    const reused = await h.call("POST", "/v1/dte/emit", { key: otherKey.key, body: emitBody(39), headers: { "idempotency-key": "session-then-key" } });
    expect(reused.json.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  test("another environment or another business does not share the key", async () => {
    const body = emitBody(39);
    const first = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body, headers: { "idempotency-key": "scoped" } });
    expect([201, 202]).toContain(first.status);
    // The live environment of the same business: not a replay (it fails for its own reasons: no live CAF).
    const live = await h.call("POST", "/v1/dte/emit", { ...session("live"), body, headers: { ...session("live").headers, "idempotency-key": "scoped" } });
    expect(live.headers.get("idempotent-replayed")).toBeNull();
    expect(live.json.data?.id).not.toBe(first.json.data.id);
    // Another tenant naming the same key gets its own answer, never this business's document.
    const other = await tenant(h, "60803000-K");
    const foreign = await h.call("POST", "/v1/dte/emit", { key: other.key.key, body, headers: { "idempotency-key": "scoped" } });
    expect(foreign.headers.get("idempotent-replayed")).toBeNull();
    expect(foreign.json.data?.id).toBeUndefined();
  });
});
