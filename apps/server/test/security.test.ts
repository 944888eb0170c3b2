/**
 * The shared security suite: every authenticated route, from one table, is checked for 401 without a credential
 * (and before body validation), 401 with a revoked key, 403 without its permission (details.required_permission),
 * 404 on another tenant's resource (key and session), 404 with a key of another business of the same user, 404
 * with the owner's key of the other environment (environment-scoped resources; lists of the other environment
 * never show them), and 404 for a session naming another user's business in X-Business-Id.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "./support/harness.js";
import { businessBody, createKey, expectError, tenant } from "./support/fixtures.js";
import { emitBody, emitter } from "./support/emission.js";
import { PERMISSIONS } from "../src/http/credential.js";
import { receivedDocuments } from "../src/db/received.js";
import { newId } from "../src/ids.js";

interface Ids {
  businessId: string;
  keyId: string;
  numerationId: string;
  dteId: string;
  eventId: string;
  receivedId: string;
  /** A RUT of the SII's list of electronic issuers (public data, the same for every tenant). */
  issuerRut: string;
}

const PLACEHOLDERS: Ids = { businessId: "{id}", keyId: "{id}", numerationId: "{id}", dteId: "{id}", eventId: "{id}", receivedId: "{id}", issuerRut: "{rut}" };

interface RouteCase {
  method: string;
  path: (ids: Ids) => string;
  permission: string | "any";
  body?: unknown;
  /** The path names a resource of one tenant. */
  tenantScoped?: boolean;
  /** The resource belongs to one environment (test): the owner's live key must not see it. */
  environmentScoped?: boolean;
  /** The route acts for one business + environment (a session names it with X-Business-Id). */
  businessScoped?: boolean;
  /** A list that must not show the other tenant's / other environment's resource id. */
  lists?: keyof Ids;
}

/** A readable (unsigned, untimbred) DTE, enough for `/received/{id}/pdf` to print it. */
const SEEDED_DTE = '<DTE version="1.0"><Documento ID="T33F1"><Encabezado><IdDoc><TipoDTE>33</TipoDTE><Folio>1</Folio><FchEmis>2026-01-15</FchEmis></IdDoc>'
  + "<Emisor><RUTEmisor>76192083-9</RUTEmisor><RznSoc>Proveedor</RznSoc><GiroEmis>Comercio</GiroEmis><DirOrigen>Calle 1</DirOrigen><CmnaOrigen>Santiago</CmnaOrigen></Emisor>"
  + "<Receptor><RUTRecep>77777777-7</RUTRecep><RznSocRecep>Comprador</RznSocRecep></Receptor><Totales><MntNeto>100</MntNeto><TasaIVA>19</TasaIVA><IVA>19</IVA><MntTotal>119</MntTotal></Totales></Encabezado>"
  + "<Detalle><NroLinDet>1</NroLinDet><NmbItem>Servicio</NmbItem><QtyItem>1</QtyItem><PrcItem>100</PrcItem><MontoItem>100</MontoItem></Detalle></Documento></DTE>";

async function seedReceived(h: Harness, businessId: string): Promise<string> {
  const id = newId("received");
  const at = new Date();
  await h.deps.db.insert(receivedDocuments).values({
    id, businessId, environment: "test", emisorRut: "76192083-9", emisorRazonSocial: "Proveedor", emisorGiro: null, tipo: 33, folio: 1, fecha: "2026-01-15",
    montoNeto: 100, montoExento: 0, montoIva: 19, montoTotal: 119, items: [], referencias: [], xml: new TextEncoder().encode(SEEDED_DTE), verified: false,
    verificacion: { firma: "invalida", timbre: "invalido", caf: "ilegible", receptor: "ok" }, estado: "SIN_RESPUESTA", eventos: [], recibidoAt: at, codEnvio: 1,
    createdAt: at, updatedAt: at,
  });
  return id;
}

export const ROUTES: RouteCase[] = [
  { method: "GET", path: () => "/v1/auth/me", permission: "any" },
  { method: "POST", path: () => "/v1/rut/validate", permission: "any", body: { rut: "76192083-9" } },
  { method: "GET", path: () => "/v1/tokens", permission: "tokens:read", lists: "keyId" },
  { method: "POST", path: () => "/v1/tokens", permission: "tokens:write", body: { name: "x", permissions: ["dte:read"] } },
  { method: "DELETE", path: (i) => `/v1/tokens/${i.keyId}`, permission: "tokens:write", tenantScoped: true },
  { method: "GET", path: () => "/v1/businesses", permission: "businesses:read", lists: "businessId" },
  { method: "POST", path: () => "/v1/businesses", permission: "businesses:write", body: businessBody({ rut: "22222222-2" }) },
  { method: "GET", path: (i) => `/v1/businesses/${i.businessId}`, permission: "businesses:read", tenantScoped: true },
  { method: "PUT", path: (i) => `/v1/businesses/${i.businessId}`, permission: "businesses:write", body: { giro: "x" }, tenantScoped: true },
  { method: "DELETE", path: (i) => `/v1/businesses/${i.businessId}`, permission: "businesses:write", tenantScoped: true },
  { method: "POST", path: (i) => `/v1/businesses/${i.businessId}/certificate`, permission: "businesses:write", body: { pfx_base64: "AAAA", password: "x" }, tenantScoped: true },
  { method: "POST", path: (i) => `/v1/businesses/${i.businessId}/webhook-secret`, permission: "businesses:write", tenantScoped: true },
  { method: "GET", path: (i) => `/v1/businesses/${i.businessId}/numerations`, permission: "numerations:read", tenantScoped: true },
  { method: "POST", path: (i) => `/v1/businesses/${i.businessId}/numerations`, permission: "numerations:write", body: { caf_xml: "<AUTORIZACION/>" }, tenantScoped: true },
  { method: "GET", path: (i) => `/v1/numerations/${i.numerationId}`, permission: "numerations:read", tenantScoped: true, environmentScoped: true },
  { method: "POST", path: () => "/v1/sandbox/numerations", permission: "numerations:write", body: { tipo: 39, cantidad: 1 } },
  { method: "POST", path: () => "/v1/dte/emit", permission: "dte:write", body: emitBody(39), businessScoped: true },
  { method: "POST", path: () => "/v1/dte/batch", permission: "dte:write", body: { documents: [emitBody(39)] }, businessScoped: true },
  { method: "POST", path: () => "/v1/dte/preview", permission: "dte:write", body: emitBody(39), businessScoped: true },
  { method: "POST", path: () => "/v1/dte/batch/preview", permission: "dte:write", body: { documents: [emitBody(39)] }, businessScoped: true },
  { method: "GET", path: () => "/v1/dte", permission: "dte:read", businessScoped: true, lists: "dteId" },
  { method: "GET", path: () => "/v1/dte/resumen", permission: "dte:read", businessScoped: true },
  { method: "GET", path: (i) => `/v1/dte/${i.dteId}`, permission: "dte:read", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "GET", path: (i) => `/v1/dte/${i.dteId}/status`, permission: "dte:read", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "GET", path: (i) => `/v1/dte/${i.dteId}/aceptacion`, permission: "dte:read", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "GET", path: (i) => `/v1/dte/${i.dteId}/pdf`, permission: "dte:read", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "GET", path: (i) => `/v1/dte/${i.dteId}/xml`, permission: "dte:read", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "POST", path: (i) => `/v1/dte/${i.dteId}/anular`, permission: "dte:write", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "POST", path: (i) => `/v1/dte/${i.dteId}/enviar`, permission: "dte:write", body: {}, tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "GET", path: () => "/v1/events", permission: "dte:read", businessScoped: true, lists: "eventId" },
  { method: "POST", path: (i) => `/v1/events/${i.eventId}/resend`, permission: "dte:write", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "POST", path: () => "/v1/received", permission: "received:write", body: { xml: "<EnvioDTE/>" }, businessScoped: true },
  { method: "GET", path: (i) => `/v1/issuers/${i.issuerRut}`, permission: "dte:read", businessScoped: true },
  { method: "GET", path: () => "/v1/received", permission: "received:read", businessScoped: true },
  { method: "GET", path: () => "/v1/received/inbox", permission: "received:read", businessScoped: true },
  { method: "GET", path: (i) => `/v1/received/${i.receivedId}`, permission: "received:read", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "GET", path: (i) => `/v1/received/${i.receivedId}/xml`, permission: "received:read", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "GET", path: (i) => `/v1/received/${i.receivedId}/pdf`, permission: "received:read", tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "POST", path: (i) => `/v1/received/${i.receivedId}/aceptar`, permission: "received:write", body: {}, tenantScoped: true, environmentScoped: true, businessScoped: true },
  { method: "POST", path: (i) => `/v1/received/${i.receivedId}/reclamar`, permission: "received:write", body: { accion: "RCD", motivo: "x" }, tenantScoped: true, environmentScoped: true, businessScoped: true },
];

describeDrivers("security suite", (driver) => {
  let h: Harness;
  let mine: Awaited<ReturnType<typeof tenant>>;
  let theirs: Awaited<ReturnType<typeof tenant>>;
  let revokedKey: string;
  /** Their user's key for a second business of theirs, and their own live key (same business). */
  let siblingKey: string;
  let liveKey: string;
  /** For each permission, a key of `mine` holding every other permission. */
  const lacking = new Map<string, string>();
  let ids: Ids;
  beforeAll(async () => {
    h = await createHarness(driver);
    mine = await emitter(h, { tipos: [39], cantidad: 20 });
    theirs = await emitter(h, { tipos: [39], cantidad: 20, rut: "60803000-K" });
    const revoked = await createKey(h, mine.user.token, mine.business.id);
    expect((await h.call("DELETE", `/v1/tokens/${revoked.id}`, { token: mine.user.token })).status).toBe(200);
    revokedKey = revoked.key;
    for (const permission of PERMISSIONS) {
      lacking.set(permission, (await createKey(h, mine.user.token, mine.business.id, PERMISSIONS.filter((p) => p !== permission))).key);
    }
    const sibling = await h.call("POST", "/v1/businesses", { token: theirs.user.token, body: businessBody({ rut: "11111111-1" }) });
    expect(sibling.status).toBe(201);
    siblingKey = (await createKey(h, theirs.user.token, sibling.json.data.id)).key;
    liveKey = (await createKey(h, theirs.user.token, theirs.business.id, ["*"], "live")).key;
    const numerations = await h.call("GET", `/v1/businesses/${theirs.business.id}/numerations`, { key: theirs.key.key });
    const emitted = await h.call("POST", "/v1/dte/emit", { key: theirs.key.key, body: emitBody(39) });
    expect(emitted.status).toBeLessThan(300);
    const events = await h.call("GET", "/v1/events", { key: theirs.key.key });
    ids = {
      businessId: theirs.business.id,
      keyId: theirs.key.id,
      numerationId: numerations.json.data[0].id,
      dteId: emitted.json.data.id,
      eventId: events.json.data[0]?.id ?? "evt_00000000000000000000000000",
      // A received document of theirs, stored directly (importing one takes two businesses and an accepted document:
      // modules/received/received.test.ts); here only who may see and decide on it matters.
      receivedId: await seedReceived(h, theirs.business.id),
      issuerRut: "60803000-K",
    };
  }, 120_000);
  afterAll(() => h.close(), 60_000);

  for (const route of ROUTES) {
    const name = `${route.method} ${route.path(PLACEHOLDERS)}`;

    test(`${name}: 401 without a credential, whatever the body`, async () => {
      const none = await h.call(route.method, route.path(ids), route.body ? { body: {} } : {});
      expectError(none, 401, "UNAUTHORIZED");
      const malformed = await h.call(route.method, route.path(ids), { headers: { "x-api-key": "sk_test_short" } });
      expectError(malformed, 401, "UNAUTHORIZED");
      if (route.method !== "GET") {
        const garbage = await h.call(route.method, route.path(ids), { raw: "{not json", headers: { "content-type": "application/json" } });
        expectError(garbage, 401, "UNAUTHORIZED");
        const wrongType = await h.call(route.method, route.path(ids), { raw: "x", headers: { "content-type": "text/plain" } });
        expectError(wrongType, 401, "UNAUTHORIZED");
      }
    });

    test(`${name}: 401 with a revoked key`, async () => {
      expectError(await h.call(route.method, route.path(ids), { key: revokedKey, body: route.body }), 401, "UNAUTHORIZED");
    });

    if (route.permission !== "any") {
      test(`${name}: 403 without ${route.permission}`, async () => {
        const res = await h.call(route.method, route.path(ids), { key: lacking.get(route.permission), body: route.body });
        expectError(res, 403, "FORBIDDEN");
        expect(res.json.error.details.required_permission).toBe(route.permission);
      });
    }

    if (route.tenantScoped) {
      test(`${name}: 404 for another tenant's resource (key and session)`, async () => {
        expectError(await h.call(route.method, route.path(ids), { key: mine.key.key, body: route.body }), 404, "NOT_FOUND");
        const session = { token: mine.user.token, body: route.body, headers: { "x-business-id": mine.business.id } };
        expectError(await h.call(route.method, route.path(ids), session), 404, "NOT_FOUND");
      });
    }

    if (route.tenantScoped) {
      test(`${name}: 404 with the owner's key of another business`, async () => {
        expectError(await h.call(route.method, route.path(ids), { key: siblingKey, body: route.body }), 404, "NOT_FOUND");
      });
    }

    if (route.environmentScoped) {
      test(`${name}: 404 with the owner's key of the other environment (live)`, async () => {
        expectError(await h.call(route.method, route.path(ids), { key: liveKey, body: route.body }), 404, "NOT_FOUND");
      });
    }

    if (route.businessScoped) {
      test(`${name}: 404 for a session naming another user's business (X-Business-Id)`, async () => {
        const res = await h.call(route.method, route.path(ids), { token: mine.user.token, body: route.body, headers: { "x-business-id": theirs.business.id } });
        expectError(res, 404, "NOT_FOUND");
      });
    }

    if (route.lists) {
      const field = route.lists;
      // Keys and businesses are not environment data (API.md §6.5: a key caller lists its business's keys).
      test(`${name}: another tenant, another business and the other environment never list it`, async () => {
        for (const [who, key] of [["other tenant", mine.key.key], ["sibling business", siblingKey], ...(field === "businessId" || field === "keyId" ? [] : [["live key", liveKey]])] as const) {
          const res = await h.call("GET", `${route.path(ids)}?limit=100`, { key });
          expect({ who, status: res.status }).toEqual({ who, status: 200 });
          expect({ who, leaked: JSON.stringify(res.json.data).includes(ids[field]) }).toEqual({ who, leaked: false });
        }
      });
    }
  }

  test("the owner still sees every resource (the matrix is not vacuous)", async () => {
    for (const route of ROUTES.filter((r) => r.method === "GET" && r.tenantScoped)) {
      const res = await h.call("GET", route.path(ids), { key: theirs.key.key });
      expect({ path: route.path(PLACEHOLDERS), status: res.status }).toEqual({ path: route.path(PLACEHOLDERS), status: 200 });
    }
    const list = await h.call("GET", "/v1/dte", { key: theirs.key.key });
    expect(JSON.stringify(list.json.data)).toContain(ids.dteId);
  });

  test("the other tenant's resources survived every attempt", async () => {
    expect((await h.call("GET", `/v1/businesses/${theirs.business.id}`, { key: theirs.key.key })).status).toBe(200);
  });

  test("every route of the app is in the table (or public)", async () => {
    const spec = (await h.call("GET", "/v1/openapi.json")).json as { paths: Record<string, Record<string, unknown>> };
    const PUBLIC = new Set(["GET /v1/health", "POST /v1/auth/register", "POST /v1/auth/login", "POST /v1/auth/refresh"]);
    const covered = new Set(ROUTES.map((r) => `${r.method} ${r.path(PLACEHOLDERS)}`));
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const method of Object.keys(ops)) {
        const key = `${method.toUpperCase()} ${path.replace(/\/$/, "")}`;
        if (!PUBLIC.has(key)) expect(covered.has(key) ? key : `missing: ${key}`).toBe(key);
      }
    }
  });
});
