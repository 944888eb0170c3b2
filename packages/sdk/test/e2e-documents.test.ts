/**
 * End to end, documents: the SDK against the real server (apps/server, in process, SII sandbox, workers
 * running): numerations, emission, listing and downloads, events, every error class from a real answer,
 * retry with one idempotency key, and a real signed webhook delivery.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  Timbre,
  ValidationError,
  webhooks,
} from "../src/index.js";
import type { EmitParams } from "../src/index.js";
import { type RealServer, startRealServer } from "./support/real-server.js";
import { freePort } from "./support/server-process.js";
import { startWebhookReceiver } from "./support/webhook-receiver.js";

const started = await startRealServer({ WEBHOOK_ALLOW_PRIVATE: "true" });
if ("unavailable" in started) throw new Error(`SDK end-to-end needs apps/server: ${started.unavailable}`);
const server: RealServer = started;
afterAll(() => server.stop());

const coreCaf = (await import(new URL("../../core/src/caf/index.ts", import.meta.url).href)) as {
  issueCaf(options: Record<string, unknown>): { xml: string };
};
const coreTesting = (await import(new URL("../../core/src/testing/index.ts", import.meta.url).href)) as {
  generateTestCertificate(options: Record<string, unknown>): Promise<{ p12: Uint8Array; password: string }>;
};

const anon = (baseUrl = server.baseUrl) => new Timbre({ baseUrl, maxRetries: 0 });
const RUT = "76192083-9";
const invoice: EmitParams = {
  tipo: 33,
  receptor: { rut: "60803000-K", razon_social: "Cliente de Prueba Ltda", giro: "Comercio", direccion: "Calle Falsa 123", comuna: "Santiago" },
  items: [{ nombre: "Servicio de consultoría", cantidad: 2, precio: 50000 }],
};

let client: Timbre;
let apiKey = "";
let businessId: string;
let webhookSecret: string;
const receiver = startWebhookReceiver();
const deliveries = receiver.deliveries;
afterAll(() => receiver.stop());

beforeAll(async () => {
  const registered = await anon().auth.register({ email: `docs-${crypto.randomUUID()}@example.com`, password: "una clave bien larga", nombre: "Ana" });
  const session = anon().withOptions({ accessToken: registered.access_token });
  const biz = await session.businesses.create({
    rut: RUT, razon_social: "Café Austral SpA", giro: "Cafetería", acteco: [561000], direccion: "Av. Providencia 1234", comuna: "Providencia",
    webhook_url: receiver.url,
  });
  businessId = biz.id;
  webhookSecret = biz.webhook_secret ?? "";
  const now = Date.now();
  const cert = await coreTesting.generateTestCertificate({
    rut: "11111111-1", name: "ANA PEREZ", password: "clave",
    validFrom: new Date(now - 86_400_000), validTo: new Date(now + 365 * 86_400_000),
  });
  await session.businesses.certificate.upload({ id: businessId, file: cert.p12, password: cert.password });
  const key = await session.tokens.create({ name: "e2e", permissions: ["*"], business_id: businessId });
  apiKey = key.key;
  client = new Timbre({ baseUrl: server.baseUrl, apiKey, maxRetries: 0 });
}, 30_000);

describe("numerations", () => {
  test("sandbox.numerations.create, businesses.numerations.list/create, numerations.retrieve", async () => {
    const issued = await client.sandbox.numerations.create({ tipo: 33, cantidad: 100 });
    expect(issued).toMatchObject({ tipo: 33, business_id: businessId, estado: "activa", environment: "test" });
    await client.sandbox.numerations.create({ tipo: 61, cantidad: 10 });

    const authority = await server.sandboxAuthority();
    expect(authority).not.toBeNull();
    const { xml } = coreCaf.issueCaf({
      authority, rut: RUT, razonSocial: "Cafe Austral SpA", tipo: 34, desde: 1, hasta: 20,
      fechaAutorizacion: new Date().toISOString().slice(0, 10),
    });
    const uploaded = await client.businesses.numerations.create(businessId, { file: xml });
    expect(uploaded).toMatchObject({ tipo: 34, desde: 1, hasta: 20, disponibles: 20 });
    await expect(client.businesses.numerations.create(businessId, { file: xml })).rejects.toBeInstanceOf(ConflictError);

    const listed = await client.businesses.numerations.list(businessId).toArray();
    expect(listed.map((n) => n.tipo).sort()).toEqual([33, 34, 61]);
    const only34 = await client.businesses.numerations.list(businessId, { tipo: 34 });
    expect(only34.data.map((n) => n.id)).toEqual([uploaded.id]);
    expect((await client.numerations.retrieve(issued.id)).id).toBe(issued.id);
  });
});

describe("dte", () => {
  test("preview, emit, retrieve, status until ACEPTADO, pdf, xml, anular", async () => {
    const preview = await client.dte.preview(invoice);
    expect(preview.totals.monto_total).toBe(119000);

    const dte = await client.dte.emit(invoice);
    expect(dte.id).toMatch(/^dte_/);
    expect(["ENVIADO", "PENDIENTE"]).toContain(dte.estado);
    const detail = await client.dte.retrieve(dte.id);
    expect(detail.folio).toBe(dte.folio);
    const status = await client.dte.status(dte.id);
    expect(status.id).toBe(dte.id);
    const final = await client.dte.waitForFinalStatus(dte.id, { interval: 100, timeout: 20_000 });
    expect(final.estado).toBe("ACEPTADO");

    const pdf = await client.dte.pdf(dte.id);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
    const xml = new TextDecoder("latin1").decode(await client.dte.xml(dte.id));
    expect(xml).toContain(`<Folio>${dte.folio}</Folio>`);

    // request options in the place of the body would lose the idempotency key: refused before any request
    await expect(client.dte.anular(dte.id, { idempotencyKey: "k" } as never)).rejects.toThrow("idempotencyKey belongs in the third argument");
    const nota = await client.dte.anular(dte.id, { razon: "Precio equivocado" }, { idempotencyKey: `anula-${dte.id}` });
    expect(nota.tipo).toBe(61);
    const again = await client.dte.anular(dte.id, { razon: "Precio equivocado" }, { idempotencyKey: `anula-${dte.id}` });
    expect(again.id).toBe(nota.id);
    expect((await client.dte.retrieve(nota.id)).referencias[0]).toMatchObject({ folio: dte.folio, razon: "Precio equivocado", codigo: 1 });
    expect(detail.receptor).toEqual(invoice.receptor); // the whole receptor, not only rut and name

    // The factura and the note annulling it cancel out in the period's débito fiscal.
    const summary = await client.dte.summary({ desde: dte.fecha, hasta: dte.fecha });
    expect(summary.tipos.map((t) => [t.tipo, t.documentos, t.monto_iva])).toEqual([[33, 1, 19000], [61, 1, 19000]]);
    expect(summary.debito_fiscal).toBe(0);
    await expect(client.dte.summary({ desde: dte.fecha, hasta: "no" })).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
  }, 30_000);

  test("the receiver claims a factura: acceptance() says RECLAMADO with the RCD, typed", async () => {
    const dte = await client.dte.emit({ ...invoice, receptor: { ...invoice.receptor, razon_social: "Cliente [sandbox:reclamo]" } });
    expect((await client.dte.waitForFinalStatus(dte.id, { interval: 100, timeout: 20_000 })).estado).toBe("ACEPTADO");
    // The server's own first check comes 30 s after the acceptance (sandbox): normally not yet asked.
    const before = await client.dte.acceptance(dte.id);
    if (before.estado === "SIN_CONSULTAR") expect(before.proxima_consulta_at).not.toBeNull();
    else expect(before.estado).toBe("RECLAMADO");
    const answer = await client.dte.acceptance(dte.id, { refresh: true });
    expect(answer).toMatchObject({ id: dte.id, folio: dte.folio, estado: "RECLAMADO", proxima_consulta_at: null });
    expect(answer.eventos.map((e) => [e.codigo, e.rut_responsable])).toEqual([["RCD", invoice.receptor.rut]]);
    const events = await client.events.list({ event: "dte.acceptance_changed" });
    const mine = events.data.find((e) => e.event === "dte.acceptance_changed" && e.data.dte_id === dte.id);
    if (mine?.event !== "dte.acceptance_changed") throw new Error("no dte.acceptance_changed event");
    expect([mine.data.old_status, mine.data.new_status]).toEqual(["SIN_RESPUESTA", "RECLAMADO"]);
  }, 30_000);

  test("batch checked first (batchPreviewAll: totals, errors, nothing emitted), then emitted, then for await over several pages", async () => {
    const before = (await client.dte.list({ limit: 1 })).pagination.total;
    const bad = { ...invoice, receptor: { ...invoice.receptor, rut: "76192083-8" } };
    const checked = await client.dte.batchPreviewAll([invoice, bad, invoice], { chunkSize: 2 });
    expect(checked.results.map((r) => [r.index, r.success, r.error?.code ?? r.data?.totals.monto_total])).toEqual([
      [0, true, (await client.dte.preview(invoice)).totals.monto_total],
      [1, false, "VALIDATION_ERROR"],
      [2, true, expect.any(Number)],
    ]);
    expect((await client.dte.list({ limit: 1 })).pagination.total).toBe(before);
    const result = await client.dte.batch({ documents: Array.from({ length: 5 }, () => invoice) });
    expect(result.results.every((r) => r.success)).toBe(true);
    const first = await client.dte.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    const seen: string[] = [];
    let pages = 0;
    for await (const page of client.dte.list({ limit: 2 }).pages()) {
      pages += 1;
      for (const item of page.data) seen.push(item.id);
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    const iterated: string[] = [];
    for await (const item of client.dte.list({ limit: 2 })) iterated.push(item.id);
    expect(iterated).toEqual(seen);
    expect(new Set(iterated).size).toBe(iterated.length);
    expect(iterated.length).toBeGreaterThanOrEqual(5);
  }, 30_000);

  test("contentKeys: a list fixed and sent again whole emits only the fixed document; the check says so first", async () => {
    const before = (await client.dte.list({ limit: 1 })).pagination.total;
    const bad = { ...invoice, receptor: { ...invoice.receptor, rut: "76192083-8" } };
    const extra = { ...invoice, observaciones: "content keys" };
    const first = await client.dte.batchAll([extra, bad, extra], { contentKeys: true });
    expect(first.results.map((r) => r.success)).toEqual([true, false, true]);
    expect(first.replayed).toBe(0);
    const fixed = [extra, { ...bad, receptor: invoice.receptor }, extra];
    const checked = await client.dte.batchPreviewAll(fixed, { contentKeys: true });
    expect(checked.results.map((r) => [r.replayed ?? false, r.data?.document?.folio])).toEqual([
      [true, first.results[0]?.data?.folio],
      [false, undefined],
      [true, first.results[2]?.data?.folio],
    ]);
    const again = await client.dte.batchAll(fixed, { contentKeys: true });
    expect(again.results.map((r) => r.replayed ?? false)).toEqual([true, false, true]);
    expect(again.replayed).toBe(2);
    expect(again.results[2]?.data?.id).toBe(first.results[2]?.data?.id as string);
    expect((await client.dte.list({ limit: 1 })).pagination.total).toBe(before + 3);
    // Without contentKeys the same list is emitted again: three new documents.
    await client.dte.batchAll(fixed);
    expect((await client.dte.list({ limit: 1 })).pagination.total).toBe(before + 6);
  }, 30_000);

  test("events list and resend", async () => {
    const events = await client.events.list().toArray();
    expect(events.length).toBeGreaterThan(0);
    const first = events[0];
    if (!first) throw new Error("no event");
    expect(first.id).toMatch(/^evt_/);
    await client.events.resend(first.id);
  });
});

describe("errors from real answers", () => {
  test("authentication, permission, not found, validation, conflict", async () => {
    await expect(Promise.resolve(anon().withOptions({ apiKey: "sk_test_nope" }).dte.list())).rejects.toBeInstanceOf(AuthenticationError);
    const session = await anon().auth.login({ email: "nobody@example.com", password: "x".repeat(12) }).catch((e: unknown) => e);
    expect(session).toBeInstanceOf(AuthenticationError);

    const me = await client.auth.me();
    expect(me.auth.type).toBe("api_key");
    const readOnly = await client.tokens.create({ name: "ro", permissions: ["dte:read"], business_id: businessId });
    const readClient = new Timbre({ baseUrl: server.baseUrl, apiKey: readOnly.key, maxRetries: 0 });
    await expect(readClient.dte.emit(invoice)).rejects.toBeInstanceOf(PermissionError);

    await expect(client.dte.retrieve("dte_00000000000000000000000000")).rejects.toBeInstanceOf(NotFoundError);
    const invalid = await client.dte.emit({ ...invoice, items: [] }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).issues.length).toBeGreaterThan(0);

    const key = `conflict-${crypto.randomUUID()}`;
    await client.dte.emit(invoice, { idempotencyKey: key });
    const reused = await client.dte.emit({ ...invoice, items: [{ nombre: "Otro", cantidad: 1, precio: 1 }] }, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(ValidationError); // 422: the key was used with a different request
    // ConflictError from a real answer: the same CAF uploaded twice (also asserted in "numerations").
    const dupRange = await client.sandbox.numerations.create({ tipo: 33, cantidad: 1 }).catch((e: unknown) => e);
    if (dupRange instanceof Error) throw dupRange;
    const someone = await anon().auth.register({ email: `c-${crypto.randomUUID()}@example.com`, password: "una clave bien larga", nombre: "C" });
    const dup = await anon().auth.register({ email: someone.user.email, password: "una clave bien larga", nombre: "C" }).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(ConflictError);
  });

  test("rate limit from a second server", async () => {
    const limited = await startRealServer({ RATE_LIMIT_PER_MINUTE: "3" });
    if ("unavailable" in limited) throw new Error(limited.unavailable);
    try {
      let caught: unknown;
      for (let i = 0; i < 10 && !caught; i++) {
        await anon(limited.baseUrl).rut.validate({ rut: RUT }).catch((e: unknown) => {
          if (e instanceof RateLimitError) caught = e;
        });
      }
      expect(caught).toBeInstanceOf(RateLimitError);
    } finally {
      await limited.stop();
    }
  }, 60_000); // it starts a second server process (PGlite, migrations): seconds under load, past bun's 5 s default

  test("connection error on a closed port", async () => {
    const port = await freePort();
    await expect(anon(`http://127.0.0.1:${port}/v1`).health()).rejects.toBeInstanceOf(ConnectionError);
  });
});

test("a retried emission with the same idempotency key makes one document and uses one folio", async () => {
  const upstream = new URL(server.baseUrl);
  let dropped = 0;
  const keys: string[] = [];
  const proxy = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const target = `${upstream.origin}${url.pathname}${url.search}`;
      const body = request.method === "GET" ? undefined : await request.arrayBuffer();
      const answer = await fetch(target, { method: request.method, headers: request.headers, body });
      if (request.method === "POST" && url.pathname === "/v1/dte/emit") {
        keys.push(request.headers.get("idempotency-key") ?? "");
        if (dropped === 0) {
          dropped += 1;
          await answer.arrayBuffer(); // the server emitted; the client never sees it
          return new Response("upstream connection lost", { status: 502 });
        }
      }
      return answer;
    },
  });
  try {
    const before = (await client.dte.list({ tipo: 33 }).toArray()).length;
    const retrying = new Timbre({ baseUrl: `http://127.0.0.1:${proxy.port}/v1`, apiKey, maxRetries: 2, initialRetryDelay: 10 });
    const dte = await retrying.dte.emit(invoice);
    expect(dropped).toBe(1);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1] ?? "");
    const after = await client.dte.list({ tipo: 33 }).toArray();
    expect(after.length).toBe(before + 1);
    expect(after.filter((d) => d.folio === dte.folio)).toHaveLength(1);
  } finally {
    proxy.stop(true);
  }
}, 30_000);

test("webhooks.verify accepts a real delivery and rejects a tampered body and a stale timestamp", async () => {
  await client.dte.emit(invoice);
  const deadline = Date.now() + 20_000;
  while (deliveries.length === 0 && Date.now() < deadline) await Bun.sleep(50);
  const delivery = deliveries[0];
  if (!delivery) throw new Error("no webhook delivery arrived");
  const event = await webhooks.verify(delivery.body, delivery.headers, webhookSecret);
  expect(event.business_id).toBe(businessId);
  await expect(webhooks.verify(delivery.body.replace(/"folio":(\d+)/, '"folio":9$1'), delivery.headers, webhookSecret)).rejects.toThrow();
  await expect(webhooks.verify(`${delivery.body} `, delivery.headers, webhookSecret)).rejects.toThrow();
  const stale = new Date(Date.now() + 3_600_000);
  await expect(webhooks.verify(delivery.body, delivery.headers, webhookSecret, { now: stale })).rejects.toThrow();
}, 30_000);
