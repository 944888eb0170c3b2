/**
 * End to end: the SDK against the real server (apps/server) started in this process with an in-memory
 * database. Every route exists now: nothing is skipped (documents are in e2e-documents.test.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionError,
  Timbre,
  ValidationError,
} from "../src/index.js";
import { type RealServer, startRealServer } from "./support/real-server.js";

const started = await startRealServer({ WEBHOOK_ALLOW_PRIVATE: "true" });
if ("unavailable" in started) throw new Error(`SDK end-to-end needs apps/server: ${started.unavailable}`);
const server: RealServer = started;
afterAll(() => server.stop());

const anon = () => new Timbre({ baseUrl: server.baseUrl, maxRetries: 0 });
const email = () => `sdk-${crypto.randomUUID()}@example.com`;
const business = (rut = "76192083-9") => ({
  rut,
  razon_social: "Café Austral SpA",
  giro: "Cafetería",
  acteco: [561000],
  direccion: "Av. Providencia 1234",
  comuna: "Providencia",
});

async function session() {
  const credentials = { email: email(), password: "una clave bien larga", nombre: "Ana Pérez" };
  const registered = await anon().auth.register(credentials);
  return { credentials, registered, client: anon().withOptions({ accessToken: registered.access_token }) };
}

test("health", async () => {
  const health = await anon().health();
  expect(health.status).toBe("ok");
  expect(health.checks.database).toBe("ok");
});

describe("auth", () => {
  test("register → login → me → refresh rotates", async () => {
    const { credentials, registered } = await session();
    expect(registered.token_type).toBe("Bearer");
    expect(registered.user.email).toBe(credentials.email);

    const login = await anon().auth.login({ email: credentials.email, password: credentials.password });
    const me = await anon().withOptions({ accessToken: login.access_token }).auth.me();
    expect(me.user.id).toBe(registered.user.id);
    expect(me.auth.type).toBe("session");

    const next = await anon().auth.refresh({ refresh_token: login.refresh_token });
    expect(next.refresh_token).not.toBe(login.refresh_token);
    await expect(anon().auth.refresh({ refresh_token: login.refresh_token })).rejects.toBeInstanceOf(AuthenticationError);
  });

  test("errors map to classes with code and request id", async () => {
    const { credentials } = await session();
    const wrong = await anon().auth.login({ email: credentials.email, password: "no es la clave" }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(AuthenticationError);
    expect((wrong as AuthenticationError).code).toBe("INVALID_CREDENTIALS");
    expect((wrong as AuthenticationError).requestId).toMatch(/^req_/);

    const taken = await anon().auth.register({ ...credentials, nombre: "Otra" }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ConflictError);

    const invalid = await anon().auth.register({ email: "not-an-email", password: "short", nombre: "" }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).issues.length).toBeGreaterThanOrEqual(2);

    await expect(anon().auth.me()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe("businesses", () => {
  test("create, retrieve, update, list and iterate", async () => {
    const { client } = await session();
    const created = await client.businesses.create(business());
    expect(created.id).toMatch(/^biz_/);
    expect(created.rut).toBe("76192083-9");
    expect(created.certificate).toBeNull();

    expect((await client.businesses.retrieve(created.id)).razon_social).toBe("Café Austral SpA");
    const updated = await client.businesses.update(created.id, { giro: "Cafetería y pastelería" });
    expect(updated.giro).toBe("Cafetería y pastelería");

    await client.businesses.create(business("60803000-K"));
    await client.businesses.create(business("96790240-3"));
    const first = await client.businesses.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.pagination.total).toBe(3);
    const all = await client.businesses.list({ limit: 2 }).toArray();
    expect(new Set(all.map((b) => b.id)).size).toBe(3);
  });

  test("validation, conflict, not found and rut immutability", async () => {
    const { client } = await session();
    const badRut = await client.businesses.create(business("76192083-1")).catch((e: unknown) => e);
    expect(badRut).toBeInstanceOf(ValidationError);
    expect((badRut as ValidationError).issues.some((i) => i.field === "rut")).toBe(true);

    const created = await client.businesses.create(business());
    await expect(client.businesses.create(business())).rejects.toBeInstanceOf(ConflictError);
    await expect(client.businesses.retrieve("biz_00000000000000000000000000")).rejects.toBeInstanceOf(NotFoundError);
    const rutChange = await client.businesses.update(created.id, { rut: "60803000-K" } as never).catch((e: unknown) => e);
    expect(rutChange).toBeInstanceOf(ValidationError);
  });

  test("a replayed idempotency key returns the first result without creating twice", async () => {
    const { client } = await session();
    const idempotencyKey = `create-${crypto.randomUUID()}`;
    const a = await client.businesses.create(business(), { idempotencyKey });
    const b = await client.businesses.create(business(), { idempotencyKey });
    expect(b.id).toBe(a.id);
    expect((await client.businesses.list()).pagination.total).toBe(1);
  });

  test("webhook secret shown once and rotated", async () => {
    const { client } = await session();
    const created = await client.businesses.create({ ...business(), webhook_url: "http://127.0.0.1:4000/hook" });
    expect(created.webhook_secret).toMatch(/^whsec_/);
    expect((await client.businesses.retrieve(created.id)).webhook_secret).toBeUndefined();
    const rotated = await client.businesses.rotateWebhookSecret(created.id);
    expect(rotated.webhook_secret).toMatch(/^whsec_/);
    expect(rotated.webhook_secret).not.toBe(created.webhook_secret);
  });

  test("certificate upload (multipart) stores a summary", async () => {
    type Generate = (options: Record<string, unknown>) => Promise<{ p12: Uint8Array; password: string }>;
    const coreTesting = (await import(new URL("../../core/src/testing/index.ts", import.meta.url).href)) as { generateTestCertificate: Generate };
    const { generateTestCertificate } = coreTesting;
    const now = Date.now();
    const cert = await generateTestCertificate({
      rut: "11111111-1",
      name: "Ana Pérez",
      validFrom: new Date(now - 86_400_000),
      validTo: new Date(now + 365 * 86_400_000),
      password: "clave-ñandú",
    });
    const { client } = await session();
    const created = await client.businesses.create(business());
    const withCert = await client.businesses.certificate.upload({ id: created.id, file: cert.p12, password: cert.password });
    expect(withCert.certificate?.rut_titular).toBe("11111111-1");
    const wrong = await client.businesses.certificate
      .upload({ id: created.id, file: cert.p12, password: "otra" })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ValidationError);
    expect((wrong as ValidationError).code).toBe("CERTIFICATE_INVALID");
  }, 30_000);
});

describe("tokens and API keys", () => {
  test("create a key, use it, respect permissions, revoke it", async () => {
    const { client } = await session();
    const biz = await client.businesses.create(business());
    const other = await client.businesses.create(business("60803000-K"));
    const created = await client.tokens.create({ name: "pos", permissions: ["businesses:read"], business_id: biz.id });
    expect(created.key).toMatch(/^sk_test_/);
    expect(created.prefix).toBe(created.key.slice(0, 12));

    const keyClient = anon().withOptions({ apiKey: created.key });
    const me = await keyClient.auth.me();
    expect(me.auth.type).toBe("api_key");
    expect(me.auth.key?.business_id).toBe(biz.id);

    const visible = await keyClient.businesses.list().toArray();
    expect(visible.map((b) => b.id)).toEqual([biz.id]);
    await expect(keyClient.businesses.retrieve(other.id)).rejects.toBeInstanceOf(NotFoundError);
    const denied = await keyClient.tokens.create({ name: "escalate", permissions: ["*"] }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionError);

    const listed = await client.tokens.list().toArray();
    expect(listed.some((k) => k.id === created.id)).toBe(true);
    const revoked = await client.tokens.revoke(created.id);
    expect(revoked.revoked).toBe(true);
    await expect(keyClient.auth.me()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe("rut.validate", () => {
  test("valid, invalid and missing", async () => {
    const { client } = await session();
    const valid = await client.rut.validate({ rut: "76.192.083-9" });
    expect(valid).toMatchObject({ valid: true, rut: "76192083-9", formateado: "76.192.083-9" });
    const invalid = await client.rut.validate({ rut: "76192083-1" });
    expect(invalid.valid).toBe(false);
    expect(invalid.dv_esperado).toBe("9");
    await expect(client.rut.validate({} as { rut: string })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("dte", () => {
  test("list answers a page", async () => {
    const { client } = await session();
    const biz = await client.businesses.create(business());
    const page = await client.withOptions({ businessId: biz.id }).dte.list();
    expect(Array.isArray(page.data)).toBe(true);
  });
});
