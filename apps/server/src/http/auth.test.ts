import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { createBusiness, expectError, signUp } from "../../test/support/fixtures.js";
import { PERMISSIONS, type Credential } from "./credential.js";
import { resolveBusinessScope } from "./auth.js";

describeDrivers("business scope", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  const session = (userId: string, businessId: string | null, environment: "test" | "live" = "test"): Credential => ({
    type: "session",
    userId,
    businessId,
    environment,
    permissions: [...PERMISSIONS],
  });

  test("a session names its business by header; missing → 400; another user's → 404; deleted → 404 unless read", async () => {
    const user = await signUp(h);
    const other = await signUp(h);
    const biz = await createBusiness(h, user.token);
    expect(await resolveBusinessScope(h.deps, session(user.userId, biz.id, "live"))).toEqual({ userId: user.userId, businessId: biz.id, environment: "live" });
    await expect(resolveBusinessScope(h.deps, session(user.userId, null))).rejects.toMatchObject({ apiCode: "INVALID_PARAMETER" });
    await expect(resolveBusinessScope(h.deps, session(other.userId, biz.id))).rejects.toMatchObject({ apiCode: "NOT_FOUND" });
    expect((await h.call("DELETE", `/v1/businesses/${biz.id}`, { token: user.token })).status).toBe(200);
    await expect(resolveBusinessScope(h.deps, session(user.userId, biz.id))).rejects.toMatchObject({ apiCode: "NOT_FOUND" });
    expect((await resolveBusinessScope(h.deps, session(user.userId, biz.id), { includeDeleted: true })).businessId).toBe(biz.id);
    await expect(resolveBusinessScope(h.deps, session(other.userId, biz.id), { includeDeleted: true })).rejects.toMatchObject({ apiCode: "NOT_FOUND" });
  });

  test("X-Environment other than test|live → 400 INVALID_PARAMETER", async () => {
    const user = await signUp(h);
    const res = await h.call("GET", "/v1/auth/me", { token: user.token, headers: { "x-environment": "prod" } });
    expectError(res, 400, "INVALID_PARAMETER");
    expect(res.json.error.details).toEqual({ field: "X-Environment", reason: "enum" });
  });
});
