/**
 * Bad input, property-based: every POST/PUT body and every query string of the API is fuzzed with fast-check
 * (fixed seeds) — random JSON values, valid bodies with mutated fields (wrong types, huge strings, unicode, emoji,
 * null bytes, negative/huge numbers, deep nesting, `__proto__`/`constructor` keys), broken JSON, wrong content
 * types, oversized bodies, odd query strings and path ids. Every answer must be < 500 and the envelope with a
 * documented code; the health check stays 200 and Object.prototype stays clean. FUZZ_SCALE=10 (bench) runs ten
 * times as many cases.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { createHarness, describeDrivers, type Harness } from "../test/support/harness.js";
import { businessBody, createBusiness, createKey, signUp } from "../test/support/fixtures.js";
import { emitBody, emitter, testCertificate } from "../test/support/emission.js";
import { BILLION_LAUGHS, sandboxCaf } from "../test/support/cafs.js";
import { brokenJson, cases, envelopeProblem, mutation, mutate, oddQuery, runCases, runs, type Mutation } from "./support/fuzz.js";

interface BodyRoute {
  name: string;
  method: "POST" | "PUT";
  path: () => string;
  valid: () => unknown;
  auth: () => { key?: string; token?: string; headers?: Record<string, string> };
  /** Cases of this route (before FUZZ_SCALE). */
  n: number;
  binaryOk?: boolean;
}

type BodyCase =
  | { kind: "mutated"; mutations: Mutation[]; idem?: string }
  | { kind: "random"; value: unknown }
  | { kind: "broken"; text: string }
  | { kind: "content-type"; type: string; text: string }
  | { kind: "oversized"; bytes: number; declared: boolean };

const CONTENT_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/octet-stream", "application/json; charset=latin1", "application/vnd.api+json", "image/png", "json", "application/jsonx", ";;;", "application/json, text/plain"];

const bodyCase = (valid: unknown): fc.Arbitrary<BodyCase> =>
  fc.oneof(
    { weight: 60, arbitrary: fc.record({ kind: fc.constant("mutated" as const), mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }), idem: fc.option(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 }), { nil: undefined }) }) },
    { weight: 14, arbitrary: fc.record({ kind: fc.constant("random" as const), value: fc.jsonValue({ maxDepth: 4 }) }) },
    { weight: 14, arbitrary: fc.record({ kind: fc.constant("broken" as const), text: brokenJson(JSON.stringify(valid)) }) },
    { weight: 10, arbitrary: fc.record({ kind: fc.constant("content-type" as const), type: fc.constantFrom(...CONTENT_TYPES), text: fc.constantFrom(JSON.stringify(valid), "a=1&b=2", "<x/>", "--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc\r\n--x--\r\n") }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("oversized" as const), bytes: fc.constantFrom(1024 * 1024 + 1, 2 * 1024 * 1024, 6 * 1024 * 1024), declared: fc.boolean() }) },
  );

async function send(h: Harness, route: BodyRoute, c: BodyCase) {
  const auth = route.auth();
  const headers: Record<string, string> = { ...auth.headers };
  let raw: string | Uint8Array | ReadableStream<Uint8Array>;
  if (c.kind === "mutated") {
    raw = JSON.stringify(mutate(route.valid(), c.mutations)) ?? "";
    headers["content-type"] = "application/json";
    if (c.idem !== undefined) headers["idempotency-key"] = c.idem;
  } else if (c.kind === "random") {
    raw = JSON.stringify(c.value);
    headers["content-type"] = "application/json";
  } else if (c.kind === "broken") {
    raw = c.text;
    headers["content-type"] = "application/json";
  } else if (c.kind === "content-type") {
    raw = c.text;
    headers["content-type"] = c.type;
  } else {
    const bytes = new Uint8Array(c.bytes).fill(0x20);
    bytes[0] = 0x7b; // "{"
    headers["content-type"] = "application/json";
    // A stream has no Content-Length: the limit must hold on the bytes actually read.
    raw = c.declared ? bytes : new Response(bytes).body ?? bytes;
  }
  const request = new Request(`http://localhost${route.path()}`, { method: route.method, headers: { ...headers, ...(auth.key ? { "x-api-key": auth.key } : {}), ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}) }, body: raw as BodyInit });
  const response = await h.app.handle(request);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

async function healthy(h: Harness): Promise<void> {
  const health = await h.call("GET", "/v1/health");
  expect(health.status).toBe(200);
}

describeDrivers("fuzzing every body and query string", (driver) => {
  let h: Harness;
  let mine: Awaited<ReturnType<typeof emitter>>;
  let fuzzBiz: { id: string };
  let fuzzKey: string;
  let dteId: string;
  let eventId: string;
  let caf: string;
  let p12base64: string;
  const total = { cases: 0, statuses: new Map<number, number>() };
  const count = (status: number) => {
    total.cases++;
    total.statuses.set(status, (total.statuses.get(status) ?? 0) + 1);
  };
  // PostgreSQL repeats the run at a third of the size (same seeds): the mapping of its errors is what differs.
  const n = (k: number) => runs(driver === "postgres" ? Math.ceil(k / 3) : k);

  beforeAll(async () => {
    h = await createHarness(driver, { EMIT_BUDGET_MS: "3000", SII_SANDBOX_STEP_MS: "0" });
    mine = await emitter(h, { tipos: [33, 39, 61], cantidad: 20_000 });
    const owner = await signUp(h);
    fuzzBiz = await createBusiness(h, owner.token, { rut: "96790240-3" });
    fuzzKey = (await createKey(h, owner.token, fuzzBiz.id)).key;
    const emitted = await h.call("POST", "/v1/dte/emit", { key: mine.key.key, body: emitBody(33) });
    expect(emitted.status).toBeLessThan(300);
    dteId = emitted.json.data.id;
    const events = await h.call("GET", "/v1/events", { key: mine.key.key });
    eventId = events.json.data[0]?.id ?? "evt_00000000000000000000000000";
    caf = await sandboxCaf(h, { rut: "96790240-3", desde: 1, hasta: 10 });
    p12base64 = Buffer.from(await testCertificate()).toString("base64");
  }, 180_000);

  afterAll(async () => {
    const summary = [...total.statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, k]) => `${s}×${k}`).join(" ");
    console.log(`fuzz [${driver}]: ${total.cases} requests — ${summary}`);
    await h?.close();
  }, 60_000);

  const routes = (): BodyRoute[] => {
    const key = () => ({ key: mine.key.key });
    const session = () => ({ token: mine.user.token });
    const fuzzer = () => ({ key: fuzzKey });
    let email = 0;
    return [
      { name: "register", method: "POST", path: () => "/v1/auth/register", valid: () => ({ email: `fz${++email}@example.com`, password: "0123456789ab", nombre: "Fuzz" }), auth: () => ({}), n: 120 },
      { name: "login", method: "POST", path: () => "/v1/auth/login", valid: () => ({ email: mine.user.email, password: mine.user.password }), auth: () => ({}), n: 120 },
      { name: "refresh", method: "POST", path: () => "/v1/auth/refresh", valid: () => ({ refresh_token: "rt_" + "a".repeat(40) }), auth: () => ({}), n: 200 },
      { name: "rut/validate", method: "POST", path: () => "/v1/rut/validate", valid: () => ({ rut: "76.192.083-9" }), auth: key, n: 300 },
      { name: "tokens", method: "POST", path: () => "/v1/tokens", valid: () => ({ name: "fz", permissions: ["dte:read"], environment: "test", business_id: fuzzBiz.id }), auth: fuzzer, n: 300 },
      { name: "businesses", method: "POST", path: () => "/v1/businesses", valid: () => businessBody({ rut: "77777777-7", webhook_url: "https://hooks.example.com/x", resolucion: { numero: 80, fecha: "2014-08-22" } }), auth: session, n: 300 },
      { name: "businesses/:id", method: "PUT", path: () => `/v1/businesses/${fuzzBiz.id}`, valid: () => ({ giro: "Nuevo giro", ciudad: "Santiago", email: "a@b.cl", telefono: "+56 2 1234", resolucion: { numero: 0, fecha: "2026-01-01" }, webhook_url: "https://hooks.example.com/y" }), auth: fuzzer, n: 300 },
      { name: "certificate", method: "POST", path: () => `/v1/businesses/${fuzzBiz.id}/certificate`, valid: () => ({ pfx_base64: p12base64, password: "clave" }), auth: fuzzer, n: 200 },
      { name: "webhook-secret", method: "POST", path: () => `/v1/businesses/${fuzzBiz.id}/webhook-secret`, valid: () => ({}), auth: fuzzer, n: 100 },
      { name: "numerations", method: "POST", path: () => `/v1/businesses/${fuzzBiz.id}/numerations`, valid: () => ({ caf_xml: caf }), auth: fuzzer, n: 250 },
      { name: "sandbox/numerations", method: "POST", path: () => "/v1/sandbox/numerations", valid: () => ({ tipo: 33, cantidad: 5 }), auth: fuzzer, n: 200 },
      { name: "dte/emit 33", method: "POST", path: () => "/v1/dte/emit", valid: () => emitBody(33, { forma_pago: 1, observaciones: "obs", descuento_global_porcentaje: 5 }), auth: key, n: 400 },
      { name: "dte/emit 39", method: "POST", path: () => "/v1/dte/emit", valid: () => emitBody(39), auth: key, n: 150 },
      { name: "dte/emit 61", method: "POST", path: () => "/v1/dte/emit", valid: () => emitBody(61, { referencia: { tipo_doc: 33, folio: 1, fecha: "2026-01-02", razon: "Anula", codigo: 1 } }), auth: key, n: 200 },
      { name: "dte/batch", method: "POST", path: () => "/v1/dte/batch", valid: () => ({ documents: [emitBody(39), emitBody(33)] }), auth: key, n: 200 },
      { name: "dte/preview", method: "POST", path: () => "/v1/dte/preview", valid: () => emitBody(33), auth: key, n: 300 },
      { name: "dte/preview pdf", method: "POST", path: () => "/v1/dte/preview?format=pdf", valid: () => emitBody(39), auth: key, n: 60, binaryOk: true },
      { name: "dte/:id/anular", method: "POST", path: () => `/v1/dte/${dteId}/anular`, valid: () => ({ razon: "Anula", receptor: { giro: "x" } }), auth: key, n: 150 },
      { name: "events/:id/resend", method: "POST", path: () => `/v1/events/${eventId}/resend`, valid: () => ({}), auth: key, n: 80 },
      { name: "dte/emit (session)", method: "POST", path: () => "/v1/dte/emit", valid: () => emitBody(33), auth: () => ({ ...session(), headers: { "x-business-id": mine.business.id, "x-environment": "test" } }), n: 80 },
    ];
  };

  test("every POST/PUT body: no 5xx, always the envelope with a documented code", async () => {
    const all = routes();
    const problems: string[] = [];
    for (const [i, route] of all.entries()) {
      const items = cases(bodyCase(route.valid()), n(route.n), 1000 + i);
      const found = await runCases(items, 4, async (c) => {
        const res = await send(h, route, c);
        count(res.status);
        const problem = envelopeProblem(res, route.binaryOk);
        if (problem) return `${route.name}: ${problem}`;
        const limit = /\/(certificate|numerations)$/.test(route.path()) ? 5 * 1024 * 1024 : 1024 * 1024;
        if (c.kind === "oversized" && c.bytes > limit && res.status !== 413) return `${route.name}: oversized body answered ${res.status}`;
        if (c.kind === "broken" && res.status !== 400 && res.status !== 401 && res.status !== 429) return `${route.name}: broken JSON answered ${res.status}`;
        return null;
      });
      problems.push(...found);
      await healthy(h);
    }
    expect(problems).toEqual([]);
    expect(({} as Record<string, unknown>).polluted ?? ({} as Record<string, unknown>).isAdmin).toBeUndefined();
  }, 600_000);

  test("every query string and path id: no 5xx, 400 INVALID_PARAMETER or 404 or 200", async () => {
    const lists: [string, string[], boolean?][] = [
      ["/v1/dte", ["tipo", "desde", "hasta", "estado", "folio", "receptor_rut"]],
      ["/v1/businesses", []],
      ["/v1/tokens", []],
      ["/v1/events", ["event"]],
      [`/v1/businesses/${mine.business.id}/numerations`, ["tipo", "estado"]],
      [`/v1/dte/${dteId}/pdf`, ["formato", "cedible"], true],
      [`/v1/dte/${dteId}/xml`, ["envio"], true],
      [`/v1/dte/${dteId}/status`, ["refresh"]],
      [`/v1/dte/${dteId}`, []],
    ];
    const problems: string[] = [];
    for (const [i, [path, names, binary]] of lists.entries()) {
      const items = cases(oddQuery(names), n(path === "/v1/dte" ? 500 : 120), 2000 + i);
      problems.push(
        ...(await runCases(items, 4, async (query) => {
          const res = await h.call("GET", `${path}?${query}`, { key: mine.key.key });
          count(res.status);
          const problem = envelopeProblem(res, binary);
          if (problem) return `GET ${path}?…: ${problem}`;
          if (![200, 400].includes(res.status)) return `GET ${path}?${query}: ${res.status} ${res.json?.error?.code}`;
          return null;
        })),
      );
    }
    const ids = cases(fc.oneof(fc.string({ unit: "binary", minLength: 1, maxLength: 40 }), fc.constantFrom("dte_", "dte_" + "0".repeat(26), "biz_" + "z".repeat(26), "..", "%2e%2e", "'; drop table documents; --", "x".repeat(5000), "0", "-1", "null")), n(200), 3000);
    const templates: [string, (id: string) => string][] = [
      ["GET", (id) => `/v1/dte/${id}`],
      ["GET", (id) => `/v1/dte/${id}/pdf`],
      ["GET", (id) => `/v1/businesses/${id}`],
      ["GET", (id) => `/v1/numerations/${id}`],
      ["DELETE", (id) => `/v1/tokens/${id}`],
      ["POST", (id) => `/v1/events/${id}/resend`],
      ["POST", (id) => `/v1/dte/${id}/anular`],
      ["PUT", (id) => `/v1/businesses/${id}`],
    ];
    problems.push(
      ...(await runCases(ids, 4, async (raw, index) => {
        const [method, template] = templates[index % templates.length] ?? templates[0]!;
        const id = encodeURIComponent(raw);
        const res = await h.call(method, template(id), { key: mine.key.key, ...(method === "PUT" ? { body: { giro: "x" } } : {}) });
        count(res.status);
        const problem = envelopeProblem(res);
        if (problem) return `${method} ${template("{id}")}: ${problem}`;
        if (res.status !== 404 && res.status !== 400) return `${method} ${template(id)}: ${res.status}`;
        return null;
      })),
    );
    expect(problems).toEqual([]);
    await healthy(h);
  }, 600_000);

  test("regressions found by the fuzzer: NUL characters and lone surrogates are refused, not a 500", async () => {
    const put = await h.call("PUT", `/v1/businesses/${fuzzBiz.id}`, { key: fuzzKey, body: { giro: "a\u0000b" } });
    expect({ status: put.status, code: put.json.error.code, field: put.json.error.details.field, reason: put.json.error.details.reason }).toEqual({ status: 422, code: "VALIDATION_ERROR", field: "giro", reason: "charset" });
    const extra = await h.call("POST", "/v1/dte/emit", { key: mine.key.key, body: { ...emitBody(33), extra: { note: "x\u0000" } } });
    expect({ status: extra.status, field: extra.json.error.details.field }).toEqual({ status: 422, field: "extra.note" });
    const surrogate = await h.call("POST", "/v1/dte/preview", { key: mine.key.key, raw: JSON.stringify(emitBody(33)).replace("Licencia", "Lic\\ud800encia"), headers: { "content-type": "application/json" } });
    expect({ status: surrogate.status, field: surrogate.json.error.details.field, reason: surrogate.json.error.details.reason }).toEqual({ status: 422, field: "items[1].nombre", reason: "charset" });
    for (const path of ["/v1/numerations/a%00b", "/v1/dte/a%00b/pdf", "/v1/dte?receptor_rut=1%00"]) {
      const res = await h.call("GET", path, { key: mine.key.key });
      expect({ path, status: res.status, code: res.json.error.code }).toEqual({ path, status: 400, code: "INVALID_PARAMETER" });
    }
    // Deterministic odd queries of the issue, on the list with the most filters.
    for (const query of ["limit=1e9", "page=-1", "page=0", "limit=101", "desde=2026-02-30", "hasta=2026-13-01", "folio=9999999999", "folio=2147483648", "folio=0", "tipo=33&tipo=34", "tipo[]=33", "estado=aceptado", "receptor_rut=%27%3B%20drop%20table%20documents%3B%20--", "desde=2026-12-01&hasta=2026-01-01", "page=1000000&limit=100"]) {
      const res = await h.call("GET", `/v1/dte?${query}`, { key: mine.key.key });
      expect({ query, ok: res.status === 200 || (res.status === 400 && res.json.error.code === "INVALID_PARAMETER") }).toEqual({ query, ok: true });
    }
  });

  test("hostile uploads: entity bombs, external entities, truncated/random/huge PKCS#12, wrong passwords", async () => {
    const upload = (path: string, raw: string | Uint8Array | FormData, type?: string) =>
      h.call("POST", `/v1/businesses/${fuzzBiz.id}/${path}`, { key: fuzzKey, raw, headers: type ? { "content-type": type } : {} });
    const reasonOf = (res: { json: { error?: { code?: string; details?: { reason?: string } } } }) => `${res.json?.error?.code}/${res.json?.error?.details?.reason}`;
    const XXE = `<?xml version="1.0"?><!DOCTYPE AUTORIZACION [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><AUTORIZACION><CAF version="1.0"><DA><RE>&xxe;</RE></DA></CAF></AUTORIZACION>`;
    const PARAMETER = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:1/evil.dtd"> %p;]><AUTORIZACION/>`;
    const XINCLUDE = `<AUTORIZACION xmlns:xi="http://www.w3.org/2001/XInclude"><CAF><xi:include href="file:///etc/passwd" parse="text"/></CAF></AUTORIZACION>`;
    for (const [name, xml] of [["billion laughs", BILLION_LAUGHS], ["external entity", XXE], ["parameter entity", PARAMETER]] as const) {
      for (const res of [await upload("numerations", xml, "application/xml"), await h.call("POST", `/v1/businesses/${fuzzBiz.id}/numerations`, { key: fuzzKey, body: { caf_xml: xml } })]) {
        expect({ name, got: reasonOf(res) }).toEqual({ name, got: "CAF_INVALID/unsafe_xml" });
        expect(res.text).not.toContain("root:");
      }
    }
    const xinclude = await upload("numerations", XINCLUDE, "application/xml");
    expect(xinclude.json.error.code).toBe("CAF_INVALID");
    expect(xinclude.text).not.toContain("root:");
    const hugeCaf = new TextEncoder().encode(`<AUTORIZACION>${"A".repeat(5 * 1024 * 1024 + 10)}</AUTORIZACION>`);
    expect((await upload("numerations", hugeCaf, "application/xml")).status).toBe(413);

    const p12 = await testCertificate();
    const form = (bytes: Uint8Array, password: string) => {
      const f = new FormData();
      f.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), "cert.p12");
      f.set("password", password);
      return f;
    };
    expect(reasonOf(await upload("certificate", form(p12, "wrong password")))).toBe("CERTIFICATE_INVALID/password");
    expect(reasonOf(await upload("certificate", form(p12, "")))).toBe("CERTIFICATE_INVALID/password");
    const huge = new Uint8Array(5 * 1024 * 1024 + 1024);
    huge.set(p12);
    expect((await upload("certificate", form(huge, "clave"))).status).toBe(413);
    // Property: truncations, random bytes and byte flips are refused with CERTIFICATE_INVALID (never a 5xx).
    const hostile = fc.oneof(
      fc.integer({ min: 0, max: p12.length - 1 }).map((n) => ({ what: `truncated at ${n}`, bytes: p12.slice(0, n) })),
      fc.uint8Array({ minLength: 1, maxLength: 4096 }).map((bytes) => ({ what: "random bytes", bytes })),
      fc.tuple(fc.integer({ min: 0, max: p12.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([i, x]) => {
        const bytes = p12.slice();
        bytes[i] = (bytes[i] ?? 0) ^ x;
        return { what: `byte ${i} ^ ${x}`, bytes };
      }),
    );
    const problems = await runCases(cases(hostile, n(120), 5000), 2, async (c) => {
      const res = await upload("certificate", form(c.bytes, "clave"));
      count(res.status);
      const problem = envelopeProblem(res);
      if (problem) return `${c.what}: ${problem}`;
      if (res.status === 200) return null; // a flip in a part nobody checks (e.g. a bag attribute)
      return res.json.error.code === "CERTIFICATE_INVALID" ? null : `${c.what}: ${reasonOf(res)}`;
    });
    const cafProblems = await runCases(cases(fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 2048 }), fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 3 })).map(([i, junk]) => new TextEncoder().encode(caf.slice(0, i % caf.length) + junk + caf.slice((i % caf.length) + 1)))), n(150), 5001), 2, async (bytes) => {
      const res = await upload("numerations", bytes, "application/xml");
      count(res.status);
      const problem = envelopeProblem(res);
      if (problem) return problem;
      return [201, 409].includes(res.status) || res.json.error.code === "CAF_INVALID" ? null : reasonOf(res);
    });
    expect([...problems, ...cafProblems]).toEqual([]);
    await healthy(h);
  }, 300_000);

  test("headers: odd Request-Id, Idempotency-Key, X-Environment, X-Business-Id, credentials", async () => {
    const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });
    const headerCase = fc.record({
      name: fc.constantFrom("request-id", "idempotency-key", "x-environment", "x-business-id", "x-api-key", "authorization", "content-length", "x-forwarded-for"),
      value: fc.oneof(printable, fc.constantFrom("", " ", "live", "LIVE", "test,live", "biz_", "Bearer", "Bearer ", "Bearer sk_live_x", "sk_test_" + "A".repeat(32), "-1", "99999999999999999999", "1e9", "%0d%0aSet-Cookie: x")),
      session: fc.boolean(),
    });
    const problems = await runCases(cases(headerCase, n(400), 4000), 4, async (c) => {
      const headers: Record<string, string> = c.session ? { authorization: `Bearer ${mine.user.token}`, "x-business-id": mine.business.id } : { "x-api-key": mine.key.key };
      headers[c.name] = c.value;
      const res = await h.call("POST", "/v1/dte/preview", { body: emitBody(33), headers });
      count(res.status);
      const problem = envelopeProblem(res);
      if (problem) return `${c.name}: ${problem}`;
      if ((res.headers.get("request-id") ?? "").length > 68) return "request id not bounded";
      for (const [name] of res.headers) if (/set-cookie/i.test(name)) return "a Set-Cookie header was injected";
      return null;
    });
    expect(problems).toEqual([]);
  }, 300_000);

  test("afterwards: health 200, the tables and the tenant are intact, Object.prototype is clean", async () => {
    await healthy(h);
    const me = await h.call("GET", "/v1/auth/me", { key: mine.key.key });
    expect(me.status).toBe(200);
    const list = await h.call("GET", "/v1/dte?limit=1", { key: mine.key.key });
    expect(list.status).toBe(200);
    expect(list.json.pagination.total).toBeGreaterThan(0);
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });
});
