import { afterAll, beforeAll, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { businessBody, createBusiness, createKey, expectError, signUp, tenant } from "../../../test/support/fixtures.js";
import { activeWebhookSecrets } from "./active-webhook-secrets.js";
import { webhookHeaders } from "../../webhooks/sign.js";

describeDrivers("business routes", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  test("create → 201 business object; RUT normalised; no secret without webhook", async () => {
    const user = await signUp(h);
    const res = await h.call("POST", "/v1/businesses", {
      token: user.token,
      body: businessBody({ rut: "76.192.083-9", acteco: [620200, 474100], ciudad: "Santiago", resolucion: { numero: 80, fecha: "2014-08-22" } }),
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      rut: "76192083-9",
      acteco: [620200, 474100],
      ciudad: "Santiago",
      email: null,
      resolucion: { numero: 80, fecha: "2014-08-22" },
      webhook_url: null,
      certificate: null,
    });
    expect(res.json.data.id).toMatch(/^biz_[0-9a-z]{26}$/);
    expect(res.json.data).not.toHaveProperty("webhook_secret");
    // the intercambio address (API.md §12 door 2): a random token at the inbound domain, the same on every read
    const domain = h.deps.config.mail.inboundDomain.replace(/\./g, "\\.");
    expect(res.json.data.intercambio.email).toMatch(new RegExp(`^[0-9a-f]{32}@${domain}$`));
    const read = await h.call("GET", `/v1/businesses/${res.json.data.id}`, { token: user.token });
    expect(read.json.data.intercambio.email).toBe(res.json.data.intercambio.email);
  });

  test("create: every missing required field reported, first as details.field/reason", async () => {
    const user = await signUp(h);
    const res = await h.call("POST", "/v1/businesses", { token: user.token, body: {} });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details).toMatchObject({ field: "rut", reason: "required" });
    const missing = res.json.error.details.errors.map((e: { field: string }) => e.field).sort();
    expect(missing).toEqual(["acteco", "comuna", "direccion", "giro", "razon_social", "rut"]);
  });

  test("create: bad check digit → invalid_rut; acteco rules; wrong types", async () => {
    const user = await signUp(h);
    const res = await h.call("POST", "/v1/businesses", {
      token: user.token,
      body: businessBody({ rut: "76192083-8", acteco: [620200, 12, 620201, 620202, 620203], giro: 7 }),
    });
    expectError(res, 422, "VALIDATION_ERROR");
    const reasons = Object.fromEntries(res.json.error.details.errors.map((e: { field: string; reason: string }) => [e.field, e.reason]));
    expect(reasons).toMatchObject({ rut: "invalid_rut", giro: "type", acteco: "max_items", "acteco[1]": "minimum" });
    const empty = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ acteco: [] }) });
    expect(empty.json.error.details).toMatchObject({ field: "acteco", reason: "min_items" });
    const date = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ resolucion: { numero: 1, fecha: "2014-13-01" } }) });
    expect(date.json.error.details).toMatchObject({ field: "resolucion.fecha", reason: "format" });
  });

  test("create: same RUT twice for one user → 409; another user may register it", async () => {
    const a = await signUp(h);
    await createBusiness(h, a.token, { rut: "11111111-1" });
    const dup = await h.call("POST", "/v1/businesses", { token: a.token, body: businessBody({ rut: "11.111.111-1" }) });
    expectError(dup, 409, "CONFLICT");
    const b = await signUp(h);
    await createBusiness(h, b.token, { rut: "11111111-1" });
  });

  test("create: unknown fields are refused, every one at once (API.md §1), nested ones too; nothing is created", async () => {
    const user = await signUp(h);
    const res = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ future_field: 1, resolucion: { numero: 80, fecha: "2014-08-22", tipo: 1 }, razonSocial: "x" }) });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(res.json.error.details.errors).toEqual([
      { field: "future_field", reason: "unknown", message: "is not a field of this request" },
      { field: "razonSocial", reason: "unknown", message: "is not a field of this request" },
      { field: "resolucion.tipo", reason: "unknown", message: "is not a field of this request" },
    ]);
    expect(res.json.error.details).toMatchObject({ field: "future_field", reason: "unknown" });
    expect((await h.call("GET", "/v1/businesses", { token: user.token })).json.pagination.total).toBe(0);
  });

  test("create with an API key → 403 (keys act for their own business only)", async () => {
    const t = await tenant(h);
    expectError(await h.call("POST", "/v1/businesses", { key: t.key.key, body: businessBody({ rut: "22222222-2" }) }), 403, "FORBIDDEN");
  });

  test("webhook_url: secret shown once at creation; private targets refused; bad URL refused", async () => {
    const user = await signUp(h);
    const res = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ webhook_url: "https://hooks.example.com/timbre" }) });
    expect(res.status).toBe(201);
    expect(res.json.data.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const get = await h.call("GET", `/v1/businesses/${res.json.data.id}`, { token: user.token });
    expect(get.text).not.toContain(res.json.data.webhook_secret);
    expect(get.json.data).not.toHaveProperty("webhook_secret");
    for (const url of ["http://127.0.0.1/x", "https://localhost/x", "https://10.1.2.3/x", "https://[::1]/x", "https://169.254.169.254/latest"]) {
      const bad = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ rut: "22222222-2", webhook_url: url }) });
      expectError(bad, 422, "VALIDATION_ERROR");
      expect(bad.json.error.details).toMatchObject({ field: "webhook_url", reason: "not_allowed" });
    }
    const ftp = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ rut: "22222222-2", webhook_url: "ftp://example.com" }) });
    expect(ftp.json.error.details).toMatchObject({ field: "webhook_url", reason: "format" });
  });

  test("webhook_url: private targets allowed with WEBHOOK_ALLOW_PRIVATE; https required in produccion", async () => {
    const dev = await createHarness(driver, { WEBHOOK_ALLOW_PRIVATE: "true" });
    try {
      const user = await signUp(dev);
      await createBusiness(dev, user.token, { webhook_url: "http://127.0.0.1:9999/hook" });
    } finally {
      await dev.close();
    }
    const prod = await createHarness(driver, { SII_MODE: "produccion" });
    try {
      const user = await signUp(prod);
      const res = await prod.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ webhook_url: "http://hooks.example.com/x" }) });
      expect(res.json.error.details).toMatchObject({ field: "webhook_url", reason: "format" });
    } finally {
      await prod.close();
    }
  }, 30_000);

  test("get: own → 200; another user's → 404; a key sees only its business", async () => {
    const a = await tenant(h);
    const b = await tenant(h);
    expect((await h.call("GET", `/v1/businesses/${a.business.id}`, { token: a.user.token })).status).toBe(200);
    expectError(await h.call("GET", `/v1/businesses/${b.business.id}`, { token: a.user.token }), 404, "NOT_FOUND");
    const second = await createBusiness(h, a.user.token, { rut: "60803000-K" });
    expectError(await h.call("GET", `/v1/businesses/${second.id}`, { key: a.key.key }), 404, "NOT_FOUND");
    expectError(await h.call("GET", "/v1/businesses/biz_nope", { token: a.user.token }), 404, "NOT_FOUND");
  });

  test("list: paginated, session sees all, key only its own", async () => {
    const t = await tenant(h);
    await createBusiness(h, t.user.token, { rut: "60803000-K" });
    await createBusiness(h, t.user.token, { rut: "22222222-2" });
    const all = await h.call("GET", "/v1/businesses?limit=2&page=2", { token: t.user.token });
    expect(all.json.pagination).toEqual({ page: 2, limit: 2, total: 3, total_pages: 2 });
    expect(all.json.data).toHaveLength(1);
    const own = await h.call("GET", "/v1/businesses", { key: t.key.key });
    expect(own.json.data.map((b: { id: string }) => b.id)).toEqual([t.business.id]);
    expectError(await h.call("GET", "/v1/businesses?limit=500", { token: t.user.token }), 400, "INVALID_PARAMETER");
  });

  test("update: partial; rut cannot change (not_allowed); first webhook_url returns its secret once", async () => {
    const t = await tenant(h);
    const res = await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { giro: "Otro giro", telefono: "+56 2 1234 5678" } });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ giro: "Otro giro", telefono: "+56 2 1234 5678", razon_social: "Comercial Ejemplo SpA" });
    const rut = await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { rut: "60803000-K" } });
    expectError(rut, 422, "VALIDATION_ERROR");
    expect(rut.json.error.details).toMatchObject({ field: "rut", reason: "not_allowed" });
    const same = await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { rut: "76.192.083-9" } });
    expect(same.status).toBe(200);
    const hook = await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { webhook_url: "https://example.com/a" } });
    expect(hook.json.data.webhook_secret).toStartWith("whsec_");
    const hook2 = await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { webhook_url: "https://example.com/b" } });
    expect(hook2.json.data).not.toHaveProperty("webhook_secret");
    const wrongType = await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { acteco: "620200", comuna: "" } });
    expect(wrongType.json.error.details.errors.map((e: { field: string; reason: string }) => `${e.field}:${e.reason}`).sort()).toEqual(["acteco:type", "comuna:min_length"]);
  });

  test("sucursal_sii is the SII's branch code: digits as a number or a string; anything else is refused", async () => {
    const t = await tenant(h);
    const put = (body: Record<string, unknown>) => h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body });
    const asNumber = await put({ sucursal_sii: 81303347 });
    expect(asNumber.status).toBe(200);
    expect(asNumber.json.data.sucursal_sii).toBe("81303347");
    expect((await put({ sucursal_sii: " 1234 " })).json.data.sucursal_sii).toBe("1234");
    const issues = async (body: Record<string, unknown>) => {
      const res = await put(body);
      expectError(res, 422, "VALIDATION_ERROR");
      return res.json.error.details.errors.map((e: { field: string; reason: string; message: string }) => `${e.field}:${e.reason}:${e.message}`);
    };
    expect(await issues({ sucursal_sii: "Casa Matriz" })).toEqual(["sucursal_sii:format:must be the SII's code of the branch (CdgSIISucur): 1 to 9 digits"]);
    expect(await issues({ sucursal_sii: "1234567890" })).toEqual(["sucursal_sii:format:must be the SII's code of the branch (CdgSIISucur): 1 to 9 digits"]);
    expect(await issues({ sucursal_sii: true })).toEqual(["sucursal_sii:type:must be a string or an integer"]);
    expect((await issues({ sucursal_sii: "x".repeat(21) }))[0]).toStartWith("sucursal_sii:max_length:");
    expect((await issues({ sucursal_sii: -1 }))[0]).toStartWith("sucursal_sii:minimum:");
    expect((await put({})).json.data.sucursal_sii).toBe("1234");
    expect((await put({ sucursal_sii: "" })).json.data.sucursal_sii).toBeNull();
    const unit = await put({ unidad_sii: "Santiago Centro", sucursal_sii: null });
    expect(unit.json.data).toMatchObject({ unidad_sii: "Santiago Centro", sucursal_sii: null });
    expect((await put({ unidad_sii: "  " })).json.data.unidad_sii).toBeNull();
    expect((await issues({ unidad_sii: "x".repeat(41) }))[0]).toStartWith("unidad_sii:max_length:");
  });

  test("update another user's business → 404", async () => {
    const a = await tenant(h);
    const b = await tenant(h);
    expectError(await h.call("PUT", `/v1/businesses/${b.business.id}`, { token: a.user.token, body: { giro: "x" } }), 404, "NOT_FOUND");
  });

  test("webhook-secret rotation: new secret; the old one still signs for 24 h", async () => {
    const user = await signUp(h);
    const created = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ webhook_url: "https://example.com/h" }) });
    const oldSecret = created.json.data.webhook_secret as string;
    const res = await h.call("POST", `/v1/businesses/${created.json.data.id}/webhook-secret`, { token: user.token });
    expect(res.status).toBe(200);
    const newSecret = res.json.data.webhook_secret as string;
    expect(newSecret).toStartWith("whsec_");
    expect(newSecret).not.toBe(oldSecret);
    const [row] = await h.database.db.query.businesses.findMany({ where: (b, { eq }) => eq(b.id, created.json.data.id) });
    if (!row) throw new Error("row missing");
    expect(JSON.stringify(row)).not.toContain(newSecret.slice(6));
    const now = new Date();
    const secrets = activeWebhookSecrets(h.deps.secrets.masterKey, row, now);
    expect(secrets).toEqual([newSecret, oldSecret]);
    const body = '{"event":"dte.status_changed"}';
    const headers = webhookHeaders(secrets, "evt_1", Math.floor(now.getTime() / 1000), body);
    expect(() => new Webhook(oldSecret).verify(body, headers)).not.toThrow();
    expect(activeWebhookSecrets(h.deps.secrets.masterKey, row, new Date(now.getTime() + 25 * 3600 * 1000))).toEqual([newSecret]);
  });

  test("delete: 200 {id, deleted}; its keys are revoked; then 404 everywhere", async () => {
    const t = await tenant(h);
    const other = await createKey(h, t.user.token, t.business.id, ["dte:read"]);
    const res = await h.call("DELETE", `/v1/businesses/${t.business.id}`, { token: t.user.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ id: t.business.id, deleted: true });
    expectError(await h.call("GET", "/v1/auth/me", { key: other.key }), 401, "UNAUTHORIZED");
    expectError(await h.call("GET", `/v1/businesses/${t.business.id}`, { token: t.user.token }), 404, "NOT_FOUND");
    expectError(await h.call("DELETE", `/v1/businesses/${t.business.id}`, { token: t.user.token }), 404, "NOT_FOUND");
    const keys = await h.call("GET", "/v1/tokens", { token: t.user.token });
    expect(keys.json.data.every((k: { revoked_at: string | null }) => k.revoked_at !== null)).toBe(true);
    // The RUT is free again for this user.
    await createBusiness(h, t.user.token, { rut: "76192083-9" });
  });

  test("delete another user's business → 404", async () => {
    const a = await tenant(h);
    const b = await tenant(h);
    expectError(await h.call("DELETE", `/v1/businesses/${b.business.id}`, { token: a.user.token }), 404, "NOT_FOUND");
    expectError(await h.call("DELETE", `/v1/businesses/${b.business.id}`, { key: a.key.key }), 404, "NOT_FOUND");
  });
});
