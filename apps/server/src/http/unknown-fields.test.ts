/**
 * API.md §1 "Unknown fields": request bodies naming a field the route does not take are refused (422, reason
 * `unknown`, every one at once), read-only fields sent back are `not_allowed`, unknown query parameters are 400.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Kind, type TSchema } from "@sinclair/typebox";
import { expectError } from "../../test/support/fixtures.js";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";

type Issue = { field: string; reason: string };
const fieldsOf = (res: { json: { error: { details: { errors: Issue[] } } } }) => res.json.error.details.errors.map((e) => `${e.field}:${e.reason}`);

/** Every object schema under `schema` that does not close its properties, by path (`*` for array items). */
function openObjects(schema: TSchema, path = "body"): string[] {
  const s = schema as TSchema & { properties?: Record<string, TSchema>; items?: TSchema; anyOf?: TSchema[]; allOf?: TSchema[]; additionalProperties?: unknown };
  const out: string[] = [];
  if (s.type === "object" && s.properties !== undefined && s.additionalProperties !== false) out.push(path);
  for (const [name, child] of Object.entries(s.properties ?? {})) out.push(...openObjects(child, `${path}.${name}`));
  if (s.items && Kind in s.items) out.push(...openObjects(s.items, `${path}[*]`));
  for (const member of [...(s.anyOf ?? []), ...(s.allOf ?? [])]) out.push(...openObjects(member, path));
  return out;
}

describeDrivers("unknown fields and parameters are refused (API.md §1)", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  let documentId: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await emitter(h, { tipos: [33, 61] });
  }, 60_000);
  afterAll(async () => h?.close());

  const call = (method: string, path: string, body?: unknown) => h.call(method, path, { key: t.key.key, ...(body === undefined ? {} : { body }) });

  test("emit: every unknown field at once, nested and in arrays, beside the other problems; no folio taken", async () => {
    const body = emitBody(33);
    const items = body.items as Array<Record<string, unknown>>;
    const res = await call("POST", "/v1/dte/emit", {
      ...body,
      formaPago: 2,
      forma_pago: 9,
      receptor: { ...RECEPTOR, foo: "x" },
      items: [{ ...items[0], descuento: 5 }, items[1]],
      referencia: undefined,
    });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(fieldsOf(res)).toEqual(expect.arrayContaining(["formaPago:unknown", "forma_pago:enum", "receptor.foo:unknown", "items[0].descuento:unknown"]));
    expect(res.json.error.details.errors).toHaveLength(4);
    expect(res.json.error.details.field).toBe(res.json.error.details.errors[0].field);
    expect(res.json.error.details.reason).toBe(res.json.error.details.errors[0].reason);
    const first = await call("POST", "/v1/dte/emit", body);
    expect(first.status).toBe(201);
    expect(first.json.data.folio).toBe(1);
    documentId = first.json.data.id;
  }, 30_000);

  test("preview and anular: unknown fields refused, nothing emitted", async () => {
    const preview = await call("POST", "/v1/dte/preview", { ...emitBody(33), formaPago: 2, transporte: { patente: "AB1234", conductor: "x" } });
    expectError(preview, 422, "VALIDATION_ERROR");
    expect(fieldsOf(preview)).toEqual(expect.arrayContaining(["formaPago:unknown", "transporte.conductor:unknown"]));
    const anular = await call("POST", `/v1/dte/${documentId}/anular`, { razon: "Error", motivo: "x", receptor: { email: "a@b.cl", telefono: "1" } });
    expectError(anular, 422, "VALIDATION_ERROR");
    expect(fieldsOf(anular)).toEqual(["motivo:unknown", "receptor.telefono:unknown"]);
    expect((await call("GET", "/v1/dte?tipo=61")).json.pagination.total).toBe(0);
  });

  test("batch: a document's unknown fields fail that document alone, with its paths; an unknown batch field fails the batch", async () => {
    const good = emitBody(33);
    const bad = { ...emitBody(33), items: [{ nombre: "X", cantidad: 1, precio: 100, foo: 1 }], idempotency_key: "doc-1", extra: true };
    const res = await call("POST", "/v1/dte/batch", { documents: [good, bad] });
    expect(res.status).toBe(200);
    const [ok, failed] = res.json.data.results;
    expect(ok).toMatchObject({ index: 0, success: true });
    expect(failed).toMatchObject({ index: 1, success: false, error: { code: "VALIDATION_ERROR" } });
    expect(failed.error.details.errors.map((e: Issue) => `${e.field}:${e.reason}`)).toEqual(["extra:unknown", "items[0].foo:unknown"]);
    const check = await call("POST", "/v1/dte/batch/preview", { documents: [bad] });
    expect(check.json.data.results[0].error.details.errors.map((e: Issue) => `${e.field}:${e.reason}`)).toEqual(["extra:unknown", "items[0].foo:unknown"]);
    const whole = await call("POST", "/v1/dte/batch", { documents: [good], documentos: [good] });
    expectError(whole, 422, "VALIDATION_ERROR");
    expect(fieldsOf(whole)).toEqual(["documentos:unknown"]);
  }, 30_000);

  test("auth, tokens, RUT, sandbox numerations, certificate, CAF: unknown fields refused with the schema's other problems", async () => {
    const register = await h.call("POST", "/v1/auth/register", { body: { email: "x@example.com", password: "short", nombre: "X", apellido: "Y" } });
    expectError(register, 422, "VALIDATION_ERROR");
    expect(fieldsOf(register).sort()).toEqual(["apellido:unknown", "password:min_length"]);
    const login = await h.call("POST", "/v1/auth/login", { body: { email: "x@example.com", password: "whatever-long", remember: true } });
    expect(fieldsOf(login)).toEqual(["remember:unknown"]);
    expect(fieldsOf(await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: "x", token: "y" } }))).toEqual(["token:unknown"]);
    const token = await call("POST", "/v1/tokens", { name: "ci", permissions: ["dte:read"], scopes: ["x"] });
    expectError(token, 422, "VALIDATION_ERROR");
    expect(fieldsOf(token)).toEqual(["scopes:unknown"]);
    expect((await call("GET", "/v1/tokens")).json.pagination.total).toBe(1);
    expect(fieldsOf(await call("POST", "/v1/rut/validate", { rut: "76192083-9", dv: "9" }))).toEqual(["dv:unknown"]);
    expect(fieldsOf(await call("POST", "/v1/sandbox/numerations", { tipo: 33, cantidad: 5, desde: 1 }))).toEqual(["desde:unknown"]);
    expect(fieldsOf(await call("POST", `/v1/businesses/${t.business.id}/certificate`, { pfx_base64: "AA==", password: "x", alias: "y" }))).toEqual(["alias:unknown"]);
    expect(fieldsOf(await call("POST", `/v1/businesses/${t.business.id}/numerations`, { caf_xml: "<AUTORIZACION/>", tipo: 33 }))).toEqual(["tipo:unknown"]);
    // multipart forms alike
    const certificateForm = new FormData();
    certificateForm.set("file", new Blob([new Uint8Array([1, 2, 3])]), "cert.p12");
    certificateForm.set("password", "x");
    certificateForm.set("alias", "y");
    expect(fieldsOf(await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: certificateForm }))).toEqual(["alias:unknown"]);
    const cafForm = new FormData();
    cafForm.set("file", new Blob(["<AUTORIZACION/>"]), "caf.xml");
    cafForm.set("tipo", "33");
    expect(fieldsOf(await h.call("POST", `/v1/businesses/${t.business.id}/numerations`, { key: t.key.key, raw: cafForm }))).toEqual(["tipo:unknown"]);
    // routes that take no body: any field is unknown; an empty object is fine
    expect(fieldsOf(await call("POST", `/v1/businesses/${t.business.id}/webhook-secret`, { secret: "mine" }))).toEqual(["secret:unknown"]);
    expect((await call("POST", `/v1/businesses/${t.business.id}/webhook-secret`, {})).status).toBe(200);
  });

  test("every route's JSON body schema closes every object (so the OpenAPI document says it too)", async () => {
    const checked: string[] = [];
    for (const route of h.app.routes) {
      if (!route.path.startsWith("/v1/")) continue;
      const hooks = route.hooks as { body?: TSchema; detail?: { requestBody?: { content?: Record<string, { schema?: TSchema }> } } };
      const schemas = [hooks.body, hooks.detail?.requestBody?.content?.["application/json"]?.schema].filter((s): s is TSchema => s !== undefined && Kind in s);
      for (const schema of schemas) {
        checked.push(`${route.method} ${route.path}`);
        expect({ route: `${route.method} ${route.path}`, open: openObjects(schema) }).toEqual({ route: `${route.method} ${route.path}`, open: [] });
      }
    }
    expect(checked).toEqual(expect.arrayContaining(["POST /v1/dte/emit", "POST /v1/dte/batch", "POST /v1/businesses", "PUT /v1/businesses/:id", "POST /v1/auth/register"]));
    const spec = (await h.call("GET", "/v1/openapi.json")).json;
    const schemaOf = (path: string, method: string) => spec.paths[path][method].requestBody.content["application/json"].schema;
    // the emission body is any of the tipos' shapes (API.md §13), each closed
    const shapes = schemaOf("/v1/dte/emit", "post").anyOf as Array<{ additionalProperties?: boolean }>;
    expect(shapes.length).toBe(4);
    expect(shapes.map((shape) => shape.additionalProperties)).toEqual([false, false, false, false]);
    expect(schemaOf("/v1/businesses/{id}", "put").additionalProperties).toBe(false);
  });

  test("every /v1 route that takes a body refuses an unknown field with 422 unknown", async () => {
    const ids: Record<string, string> = { businesses: t.business.id, dte: documentId, events: "evt_00000000000000000000000000", numerations: "caf_00000000000000000000000000" };
    const headers = { authorization: `Bearer ${t.user.token}`, "x-business-id": t.business.id };
    const tried: string[] = [];
    for (const route of h.app.routes) {
      if (!/^\/v1\/(?!docs|openapi)/.test(route.path) || !["POST", "PUT", "PATCH"].includes(route.method)) continue;
      const path = route.path.replace(/\/(\w+)\/:id/, (_, resource: string) => `/${resource}/${ids[resource] ?? "x"}`);
      const res = await h.call(route.method, path, { headers, body: { zz_unknown_field: 1 } });
      tried.push(route.path);
      expect({ route: route.path, status: res.status, code: res.json?.error?.code }).toEqual({ route: route.path, status: 422, code: "VALIDATION_ERROR" });
      expect(res.json.error.details.errors).toContainEqual({ field: "zz_unknown_field", reason: "unknown", message: "is not a field of this request" });
    }
    expect(tried.length).toBeGreaterThanOrEqual(15);
  }, 30_000);

  test("unknown query parameters → 400 INVALID_PARAMETER on every route; documented ones pass", async () => {
    const res = await call("GET", "/v1/dte?tipo=33&tipoDoc=33");
    expectError(res, 400, "INVALID_PARAMETER");
    expect(res.json.error.details).toEqual({ field: "tipoDoc", reason: "unknown" });
    expect((await call("GET", "/v1/dte?tipo=33&page=1&limit=5")).status).toBe(200);
    expect((await call("GET", `/v1/dte/${documentId}/status?refresh=false`)).status).toBe(200);
    expect((await call("GET", `/v1/dte/${documentId}/xml?envio=false`)).status).toBe(200);
    expectError(await call("GET", `/v1/dte/${documentId}/pdf?formato=termica&copias=2`), 400, "INVALID_PARAMETER");
    // A parameter with no name is unknown too (the fuzzer's "?=1&constructor=…" once reached the PDF renderer).
    const nameless = await call("GET", `/v1/dte/${documentId}/pdf?=1&constructor=x`);
    expectError(nameless, 400, "INVALID_PARAMETER");
    expect(nameless.json.error.details).toEqual({ field: "", reason: "unknown" });
    const emit = await h.call("POST", "/v1/dte/emit?dry_run=true", { key: t.key.key, body: emitBody(33) });
    expectError(emit, 400, "INVALID_PARAMETER");
    expect(emit.json.error.details.field).toBe("dry_run");
    expect((await call("GET", "/v1/dte?limit=100")).json.pagination.total).toBe(2); // the first emission and the batch's good document
    const headers = { authorization: `Bearer ${t.user.token}`, "x-business-id": t.business.id };
    const tried: string[] = [];
    for (const route of h.app.routes) {
      if (!/^\/v1\/(?!docs|openapi)/.test(route.path) || !["GET", "DELETE"].includes(route.method)) continue;
      const path = route.path.replace(/:id/, "x");
      const res = await h.call(route.method, `${path}?zz_unknown=1`, { headers });
      tried.push(`${route.method} ${route.path}`);
      expect({ route: `${route.method} ${route.path}`, status: res.status, details: res.json?.error?.details }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 400,
        details: { field: "zz_unknown", reason: "unknown" },
      });
    }
    expect(tried).toEqual(expect.arrayContaining(["GET /v1/health", "GET /v1/dte", "DELETE /v1/tokens/:id", "GET /v1/dte/:id/pdf"]));
    expect((await call("GET", "/v1/tokens")).json.pagination.total).toBe(1);
  }, 30_000);
});
