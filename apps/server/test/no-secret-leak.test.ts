/**
 * A full run through every foundation route, then a grep of every response body and every log line for key
 * material: full API keys (after the response that created them), refresh tokens after rotation, argon2 hashes,
 * PEM private keys, webhook secrets (after creation), certificate passwords, mailbox (IMAP) passwords.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { generateTestCertificate } from "@timbre/core/testing";
import { describeDrivers, createHarness, TEST_JWT_SECRET, TEST_MASTER_KEY, type Harness } from "./support/harness.js";
import { businessBody, signUp } from "./support/fixtures.js";

const CERT_PASSWORD = "pfx-password-never-echoed";
const IMAP_PASSWORD = "imap-password-never-echoed";

describeDrivers("no key material leaks", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  test("responses and logs of a full run carry no secret beyond its creation", async () => {
    /** secret → index of the response body allowed to show it. */
    const shownOnce = new Map<string, number>();
    const remember = (secret: string) => shownOnce.set(secret, h.bodies.length - 1);
    const user = await signUp(h);
    remember(user.refresh);
    const login = await h.call("POST", "/v1/auth/login", { body: { email: user.email, password: user.password } });
    remember(login.json.data.refresh_token);
    await h.call("POST", "/v1/auth/login", { body: { email: user.email, password: "wrong password!" } });
    const refreshed = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: login.json.data.refresh_token } });
    remember(refreshed.json.data.refresh_token);
    await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: login.json.data.refresh_token } }); // reuse
    const token = user.token;

    const biz = await h.call("POST", "/v1/businesses", { token, body: businessBody({ webhook_url: "https://hooks.example.com/x" }) });
    remember(biz.json.data.webhook_secret);
    const bizId = biz.json.data.id as string;
    const rotated = await h.call("POST", `/v1/businesses/${bizId}/webhook-secret`, { token });
    remember(rotated.json.data.webhook_secret);
    const cert = await generateTestCertificate({ rut: "11111111-1", name: "ANA", validFrom: new Date(Date.now() - 86_400_000), validTo: new Date(Date.now() + 86_400_000 * 30), password: CERT_PASSWORD });
    await h.call("POST", `/v1/businesses/${bizId}/certificate`, { token, body: { pfx_base64: Buffer.from(cert.p12).toString("base64"), password: CERT_PASSWORD } });
    await h.call("POST", `/v1/businesses/${bizId}/certificate`, { token, body: { pfx_base64: Buffer.from(cert.p12).toString("base64"), password: "wrong" } });

    const created = await h.call("POST", "/v1/tokens", { token, body: { name: "all", permissions: ["*"], business_id: bizId }, headers: { "idempotency-key": "leak-check" } });
    const key = created.json.data.key as string;
    remember(key);
    const second = await h.call("POST", "/v1/tokens", { key, body: { name: "sub", permissions: ["dte:read"] } });
    remember(second.json.data.key);
    for (const [method, path] of [
      ["GET", "/v1/auth/me"],
      ["GET", "/v1/tokens"],
      ["GET", "/v1/businesses"],
      ["GET", `/v1/businesses/${bizId}`],
      ["GET", "/v1/health"],
      ["GET", "/v1/openapi.json"],
    ] as const) {
      await h.call(method, path, { key });
    }
    await h.call("PUT", `/v1/businesses/${bizId}`, { key, body: { giro: "nuevo" } });
    await h.call("PUT", `/v1/businesses/${bizId}`, { key, body: { intercambio: { imap_url: `imaps://facturas:${IMAP_PASSWORD}@imap.example.com:993/INBOX` } } });
    await h.call("PUT", `/v1/businesses/${bizId}`, { key, body: { intercambio: { imap_url: `imaps://facturas:${IMAP_PASSWORD}@127.0.0.1:993/INBOX` } } });
    await h.call("PUT", `/v1/businesses/${bizId}`, { key, body: { intercambio: { imap_url: `imaps://facturas:${IMAP_PASSWORD}@imap.example.com:993/INBOX?x=${"y".repeat(2000)}` } } });
    await h.call("GET", `/v1/businesses/${bizId}`, { key });
    await h.call("POST", "/v1/rut/validate", { key, body: { rut: "76192083-9" } });
    await h.call("POST", "/v1/tokens", { key, body: { name: "bad", permissions: ["nope"] } });
    await h.call("DELETE", `/v1/tokens/${second.json.data.id}`, { key });
    await h.call("GET", "/v1/auth/me", { key: second.json.data.key });
    await h.call("DELETE", `/v1/businesses/${bizId}`, { token });
    await h.call("GET", "/v1/auth/me", { key });
    await Bun.sleep(50); // the last log lines are written after their responses

    const logs = h.logs.join("\n");
    const forbiddenEverywhere = ["$argon2", "PRIVATE KEY", CERT_PASSWORD, IMAP_PASSWORD, user.password, TEST_MASTER_KEY, TEST_JWT_SECRET];
    for (const needle of forbiddenEverywhere) {
      expect(h.bodies.filter((b) => b.includes(needle))).toEqual([]);
      expect(logs.includes(needle) ? needle : null).toBeNull();
    }
    for (const [secret, allowedAt] of shownOnce) {
      const leaks = h.bodies.map((b, i) => (b.includes(secret) && i !== allowedAt ? i : -1)).filter((i) => i >= 0);
      expect(leaks).toEqual([]);
      expect(logs.includes(secret) ? "secret in logs" : null).toBeNull();
    }
    expect(logs.includes(token) ? "access token in logs" : null).toBeNull();
    expect(h.bodies.length).toBeGreaterThan(20);
    expect(h.logs.length).toBeGreaterThan(20);
  }, 60_000);
});
