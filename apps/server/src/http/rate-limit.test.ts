import { afterAll, beforeAll, expect, test } from "bun:test";
import { buildApp } from "../app.js";
import { consumeRateLimit } from "./rate-limit.js";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { createKey, signUp, tenant } from "../../test/support/fixtures.js";

describeDrivers("rate limit", (driver) => {
  let h: Harness;
  let limited: ReturnType<typeof buildApp>;
  beforeAll(async () => {
    h = await createHarness(driver);
    // Same database, limit 3 per minute: the setup above runs on the generous app.
    limited = buildApp({ ...h.deps, config: { ...h.deps.config, rateLimitPerMinute: 3, trustProxy: true }, instanceId: "limited" }, h.database);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  const get = (path: string, headers: Record<string, string>) => limited.handle(new Request(`http://localhost${path}`, { headers }));

  test("hits that arrive together (coalesced into shared statements) still count one by one: 50 at once with a limit of 30", async () => {
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => consumeRateLimit(h.deps.db, i % 6 === 5 ? `key:together-other-${driver}` : `key:together-${driver}`, 30, now)),
    );
    const mine = results.filter((_, i) => i % 6 !== 5);
    // every hit got its own count: remaining goes 29, 28, … 0, then stays 0 with allowed = false
    expect(mine.map((r) => r.remaining)).toEqual(Array.from({ length: 50 }, (_, i) => Math.max(0, 29 - i)));
    expect(mine.filter((r) => r.allowed)).toHaveLength(30);
    const other = results.filter((_, i) => i % 6 === 5);
    expect(other.map((r) => r.remaining)).toEqual(Array.from({ length: 10 }, (_, i) => 29 - i));
    // a later hit continues the count
    expect((await consumeRateLimit(h.deps.db, `key:together-other-${driver}`, 30, now)).remaining).toBe(19);
  });

  test("per key: headers on every response, then 429 with Retry-After; another key is unaffected", async () => {
    const t = await tenant(h);
    const other = await createKey(h, t.user.token, t.business.id);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get("/v1/auth/me", { "x-api-key": t.key.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
      remaining.push(res.headers.get("ratelimit") ?? "");
    }
    expect(remaining.map((r) => r.match(/r=(\d+)/)?.[1])).toEqual(["2", "1", "0"]);
    expect(remaining[0]).toMatch(/^"default";r=2;t=\d+$/);
    const blocked = await get("/v1/auth/me", { "x-api-key": t.key.key });
    expect(blocked.status).toBe(429);
    const body = (await blocked.json()) as { error: { code: string; details: { retry_after: number } } };
    expect(body.error.code).toBe("RATE_LIMITED");
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body.error.details.retry_after).toBe(retryAfter);
    expect((await get("/v1/auth/me", { "x-api-key": other.key })).status).toBe(200);
  });

  test("sessions are limited per user; unauthenticated calls per client IP (X-Forwarded-For behind a trusted proxy)", async () => {
    const user = await signUp(h);
    for (let i = 0; i < 3; i++) expect((await get("/v1/auth/me", { authorization: `Bearer ${user.token}` })).status).toBe(200);
    expect((await get("/v1/auth/me", { authorization: `Bearer ${user.token}` })).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await get("/v1/nope", { "x-forwarded-for": "203.0.113.7" })).status).toBe(404);
    expect((await get("/v1/nope", { "x-forwarded-for": "203.0.113.7, 10.0.0.1" })).status).toBe(429);
    expect((await get("/v1/nope", { "x-forwarded-for": "203.0.113.8" })).status).toBe(404);
  });

  test("/health is never limited", async () => {
    for (let i = 0; i < 6; i++) {
      const res = await get("/v1/health", { "x-forwarded-for": "198.51.100.1" });
      expect(res.status).toBe(200);
    }
  });
});
