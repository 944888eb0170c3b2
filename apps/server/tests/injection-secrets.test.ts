/**
 * SQL- and header-injection strings in every text field are stored and returned verbatim, never executed (the
 * tables are all still there, with their rows), never turned into response headers; signed XML holding them still
 * verifies (line breaks only where the SII allows them: free texts). Then a full run including emission, CAFs, webhooks and events is grepped for secrets: API keys after
 * creation, `$argon2`, PEM private keys (certificate and CAF `RSASK`), `whsec_` after creation, the master key and
 * the JWT secret, in every response body and every log line.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { verifyDte } from "@timbre/core/signature";
import { rowsOf } from "../src/db/rows.js";
import { createHarness, describeDrivers, TEST_JWT_SECRET, TEST_MASTER_KEY, type Harness } from "../test/support/harness.js";
import { businessBody, createKey, signUp } from "../test/support/fixtures.js";
import { emitBody, emitter, issueFolios, RECEPTOR, testCertificate } from "../test/support/emission.js";
import { sandboxCaf } from "../test/support/cafs.js";

/** Injection strings; each field gets the ones that fit its length (never truncated: verbatim or not at all). */
const HOSTILE = [
  "'; drop table users; --",
  "';drop table users--",
  "1' OR '1'='1",
  "\"); DELETE FROM documents; --",
  "\r\nSet-Cookie: x=1",
  "%0d%0aSet-Cookie: x",
  "a\rb\nc\r\nd",
  "<![CDATA[x]]> & <y/>",
  "$(rm -rf /)",
  "\\'; --\\",
];
/** Business fields trimmed on input (the optional ones are kept exactly). */
const TRIMMED = new Set(["razon_social", "giro", "direccion", "comuna", "unidad_sii"]);
const fitting = (max: number) => HOSTILE.filter((s) => s.length <= max);

const TABLES = ["users", "businesses", "api_keys", "numerations", "unused_folios", "documents", "document_history", "envelopes", "events", "webhook_deliveries", "settings", "idempotency_keys", "rate_limits", "refresh_tokens"];

async function tableCounts(h: Harness): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const rows = rowsOf<{ n: number | string }>(await h.deps.db.execute(sql.raw(`select count(*) as n from ${table}`)));
    out[table] = Number(rows[0]?.n ?? -1);
  }
  return out;
}

describeDrivers("injection strings and secrets", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_SANDBOX_STEP_MS: "0", WEBHOOK_ALLOW_PRIVATE: "true" });
  }, 120_000);
  afterAll(() => h.close(), 60_000);

  test("business, user and key text fields: stored and returned verbatim, never executed", async () => {
    for (const [i, text] of HOSTILE.entries()) {
      const user = await signUp(h, `inj${i}@example.com`);
      const nombre = await h.call("POST", "/v1/auth/register", { body: { email: `inj${i}b@example.com`, password: "0123456789ab", nombre: text } });
      // Names are trimmed (a deliberate normalization of leading/trailing whitespace), otherwise kept verbatim.
      expect({ field: "nombre", value: nombre.json.data.user.nombre }).toEqual({ field: "nombre", value: text.trim() });
      // A business's texts go into every document's SII XML: one line as stored (trimmed where the API trims).
      const line = !/[\r\n]/.test(text.trim());
      const rawLine = !/[\r\n]/.test(text);
      if (!line) {
        const refused = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody({ razon_social: text }) });
        expect({ status: refused.status, details: refused.json.error.details }).toMatchObject({ status: 422, details: { field: "razon_social", reason: "format" } });
      }
      const fields = {
        razon_social: line ? text : "Razón social", giro: line ? text : "Giro", direccion: line ? text : "Dirección", comuna: line && text.length <= 20 ? text : "Santiago",
        ciudad: rawLine && text.length <= 20 ? text : null, telefono: rawLine && text.length <= 20 ? text : null, unidad_sii: line && text.trim() !== "" && text.length <= 40 ? text : null,
      };
      const created = await h.call("POST", "/v1/businesses", { token: user.token, body: businessBody(fields) });
      expect(created.status).toBe(201);
      const read = await h.call("GET", `/v1/businesses/${created.json.data.id}`, { token: user.token });
      for (const [field, value] of Object.entries(fields)) expect({ field, value: read.json.data[field] }).toEqual({ field, value: typeof value === "string" && TRIMMED.has(field) ? value.trim() : value });
      const updated = await h.call("PUT", `/v1/businesses/${created.json.data.id}`, { token: user.token, body: { giro: line ? `${text}!` : "Giro!" } });
      expect(updated.json.data.giro).toBe(line ? `${text}!`.trim() : "Giro!");
      const key = await h.call("POST", "/v1/tokens", { token: user.token, body: { name: text, permissions: ["dte:read"], business_id: created.json.data.id } });
      expect(key.status).toBe(201);
      const keys = await h.call("GET", "/v1/tokens", { token: user.token });
      expect(keys.json.data.map((k: { name: string }) => k.name)).toContain(text.trim());
      for (const res of [created, read, updated, key, keys]) for (const [name] of res.headers) expect(name.toLowerCase()).not.toBe("set-cookie");
    }
    const counts = await tableCounts(h);
    expect(counts.users).toBeGreaterThanOrEqual(HOSTILE.length * 2);
    expect(counts.businesses).toBe(HOSTILE.length);
  }, 120_000);

  test("emission text fields: verbatim in the DTE, the signed XML verifies, the PDF renders, the tables survive", async () => {
    const t = await emitter(h, { tipos: [33], cantidad: 100, rut: "96790240-3" });
    const before = await tableCounts(h);
    let emitted = 0;
    for (const text of HOSTILE) {
      // Names, addresses and codes are single-line since a171c03 (a CR in the TED's RSR/IT1 could not verify);
      // line breaks stay verbatim in the free texts (descripcion, observaciones).
      const ted = text.replace(/[\t\n\r]/g, " ");
      const body = emitBody(33, {
        receptor: { ...RECEPTOR, razon_social: ted, giro: fitting(40).includes(ted) ? ted : "Comercio", direccion: ted, comuna: fitting(20).includes(ted) ? ted : "Santiago", contacto: ted },
        items: [{ nombre: ted, descripcion: text, codigo: ted, cantidad: 1, precio: 1000 }, { nombre: ted, cantidad: 1, precio: 1 }],
        observaciones: text,
      });
      const res = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body });
      expect({ text, status: res.status }).toEqual({ text, status: 201 });
      emitted++;
      const detail = await h.call("GET", `/v1/dte/${res.json.data.id}`, { key: t.key.key });
      expect(detail.json.data.receptor.razon_social).toBe(ted);
      expect(detail.json.data.items[0].nombre).toBe(ted);
      expect(detail.json.data.items[0].descripcion).toBe(text);
      expect(detail.json.data.items[1].nombre).toBe(ted);
      const list = await h.call("GET", `/v1/dte?receptor_rut=${encodeURIComponent(RECEPTOR.rut)}&limit=100`, { key: t.key.key });
      expect(list.json.data.some((d: { receptor: { razon_social: string } }) => d.receptor.razon_social === ted)).toBe(true);
      const xml = await h.call("GET", `/v1/dte/${res.json.data.id}/xml`, { key: t.key.key });
      const verified = verifyDte(new Uint8Array(await new Response(xml.text).arrayBuffer()));
      expect({ text, valid: verified.valid, errors: verified.errors }).toEqual({ text, valid: true, errors: [] });
      expect((await h.call("GET", `/v1/dte/${res.json.data.id}/pdf`, { key: t.key.key })).status).toBe(200);
      for (const [name] of res.headers) expect(name.toLowerCase()).not.toBe("set-cookie");
    }
    const after = await tableCounts(h);
    expect(after.documents).toBe((before.documents ?? 0) + emitted);
    for (const table of TABLES) expect({ table, present: (after[table] ?? -1) >= 0 }).toEqual({ table, present: true });
  }, 180_000);

  test("a line break in a name, address or code is refused (422 format), never signed into an unverifiable TED", async () => {
    const t = await emitter(h, { tipos: [33], cantidad: 5, rut: "60803000-K" });
    const res = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, razon_social: "A\r\nSet-Cookie: x" }, items: [{ nombre: "B\rC", cantidad: 1, precio: 1 }] }) });
    expect({ status: res.status, code: res.json.error.code }).toEqual({ status: 422, code: "VALIDATION_ERROR" });
    const fields = res.json.error.details.errors.map((e: { field: string; reason: string }) => `${e.field}/${e.reason}`);
    expect(fields).toEqual(expect.arrayContaining(["receptor.razon_social/format", "items[0].nombre/format"]));
  });

  test("injection strings in query filters and headers are parameters, not SQL", async () => {
    const user = await signUp(h);
    for (const text of HOSTILE) {
      for (const path of [`/v1/dte?receptor_rut=${encodeURIComponent(text)}`, `/v1/dte?estado=${encodeURIComponent(text)}`, `/v1/events?event=${encodeURIComponent(text)}`]) {
        const res = await h.call("GET", path, { token: user.token, headers: { "x-business-id": "biz_x" } });
        expect(res.status).toBeLessThan(500);
      }
      const safe = text.replace(/[\r\n]/g, "");
      const res = await h.call("GET", "/v1/auth/me", { token: user.token, headers: { "request-id": safe, "idempotency-key": safe, "x-business-id": safe } });
      expect(res.status).toBe(200);
      expect(res.headers.get("request-id") ?? "").not.toMatch(/[\r\n]/);
    }
    expect(Object.values(await tableCounts(h)).every((n) => n >= 0)).toBe(true);
  }, 60_000);

  test("a full run with emission, CAFs and webhooks: no secret in any response after its creation, none in the logs", async () => {
    const shownOnce = new Map<string, number>();
    const remember = (secret: string) => shownOnce.set(secret, h.bodies.findIndex((b) => b.includes(secret)));
    const t = await emitter(h, { tipos: [33, 39, 61], cantidad: 50, rut: "77777777-7" });
    remember(t.key.key);
    const withHook = await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { webhook_url: "http://127.0.0.1:9/hooks" } });
    remember(withHook.json.data.webhook_secret);
    const rotated = await h.call("POST", `/v1/businesses/${t.business.id}/webhook-secret`, { key: t.key.key });
    remember(rotated.json.data.webhook_secret);
    const caf = await sandboxCaf(h, { rut: "77777777-7", tipo: 33, desde: 900_000, hasta: 900_010 });
    const cafRsask = /-----BEGIN RSA PRIVATE KEY-----[\s\S]*?-----END RSA PRIVATE KEY-----/.exec(caf)?.[0] ?? "";
    expect(cafRsask).not.toBe("");
    await h.call("POST", `/v1/businesses/${t.business.id}/numerations`, { key: t.key.key, body: { caf_xml: caf } });
    await issueFolios(h, t.key.key, 33, 10);
    const doc = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33) });
    const boleta = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(39) });
    await h.call("POST", "/v1/dte/batch", { key: t.key.key, body: { documents: [emitBody(39), emitBody(33), { tipo: 33 }] } });
    await h.call("POST", "/v1/dte/preview", { key: t.key.key, body: emitBody(33) });
    await h.call("POST", `/v1/dte/${doc.json.data.id}/anular`, { key: t.key.key, body: {} });
    const sub = await createKey(h, t.user.token, t.business.id, ["dte:read"]);
    remember(sub.key);
    for (const path of [
      `/v1/dte/${doc.json.data.id}`, `/v1/dte/${doc.json.data.id}/status?refresh=true`, `/v1/dte/${doc.json.data.id}/xml`, `/v1/dte/${doc.json.data.id}/xml?envio=true`,
      `/v1/dte/${boleta.json.data.id}/xml?envio=true`, "/v1/dte", "/v1/events", `/v1/businesses/${t.business.id}`, `/v1/businesses/${t.business.id}/numerations`,
      "/v1/tokens", "/v1/auth/me", "/v1/openapi.json",
    ]) {
      await h.call("GET", path, { key: t.key.key });
    }
    await h.call("GET", "/v1/dte", { key: sub.key });
    await h.call("DELETE", `/v1/tokens/${sub.id}`, { token: t.user.token });
    await h.call("GET", "/v1/dte", { key: sub.key });
    await Bun.sleep(50);

    const p12 = Buffer.from(await testCertificate()).toString("base64");
    const logs = h.logs.join("\n");
    const everywhere = ["$argon2", "PRIVATE KEY", "RSASK", cafRsask.split("\n")[1] ?? "unused", TEST_MASTER_KEY, TEST_JWT_SECRET, p12.slice(100, 160), t.user.password];
    for (const needle of everywhere) {
      expect({ needle, bodies: h.bodies.filter((b) => b.includes(needle)).length }).toEqual({ needle, bodies: 0 });
      expect({ needle, inLogs: logs.includes(needle) }).toEqual({ needle, inLogs: false });
    }
    for (const [secret, allowedAt] of shownOnce) {
      const leaks = h.bodies.map((b, i) => (b.includes(secret) && i !== allowedAt ? i : -1)).filter((i) => i >= 0);
      expect({ secret: secret.slice(0, 10), leaks: leaks.map((i) => h.bodies[i]?.slice(0, 300)) }).toEqual({ secret: secret.slice(0, 10), leaks: [] });
      expect(logs.includes(secret)).toBe(false);
    }
    // whsec_ appears only in the two responses that created/rotated a secret.
    const whsec = h.bodies.map((b, i) => (b.includes("whsec_") ? i : -1)).filter((i) => i >= 0);
    expect(whsec.every((i) => [...shownOnce.values()].includes(i))).toBe(true);
    expect(logs.includes("whsec_")).toBe(false);
  }, 180_000);
});
