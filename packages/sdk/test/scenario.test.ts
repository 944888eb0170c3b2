/**
 * The scenario every SDK runs against the real server (issue 42; the Python and PHP SDKs run the same one): emit a
 * factura, iterate a list across pages, a 404 as the not-found error with status and code, a validation error with
 * its field errors, a retry after a dropped connection that does not emit twice, and a real webhook delivery
 * verified (and a tampered one refused). The server runs as a child process, as a user runs it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ConnectionError, NotFoundError, Timbre, ValidationError, WebhookVerificationError, webhooks, type EmitParams } from "../src/index.js";
import { startDroppingProxy } from "./support/dropping-proxy.js";
import { sandboxTenant, startServerProcess, type SandboxTenant, type ServerProcess } from "./support/server-process.js";
import { startWebhookReceiver } from "./support/webhook-receiver.js";

const receiver = startWebhookReceiver();
const deliveries = receiver.deliveries;

let server: ServerProcess;
let tenant: SandboxTenant;
let client: Timbre;
beforeAll(async () => {
  server = await startServerProcess();
  tenant = await sandboxTenant(server.baseUrl, { webhookUrl: receiver.url, tipos: [33] });
  client = new Timbre({ baseUrl: server.baseUrl, apiKey: tenant.apiKey, maxRetries: 0 });
}, 120_000);
afterAll(async () => {
  receiver.stop();
  await server?.stop();
});

/** A RUT with its check digit, unique enough to find this test's documents by receptor. */
function uniqueRut(): string {
  const body = 10_000_000 + Math.floor(Math.random() * 20_000_000);
  let sum = 0;
  let factor = 2;
  for (const digit of String(body).split("").reverse()) {
    sum += Number(digit) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const dv = 11 - (sum % 11);
  return `${body}-${dv === 11 ? "0" : dv === 10 ? "K" : dv}`;
}

const factura = (rut = "60803000-K", precio = 10_000): EmitParams => ({
  tipo: 33,
  receptor: { rut, razon_social: "Cliente de Prueba Ltda", giro: "Comercio", direccion: "Calle Falsa 123", comuna: "Santiago" },
  items: [{ nombre: "Servicio de consultoría", cantidad: 2, precio }],
});

test("emits a factura: totals, folio, its Request-Id, and its PDF and XML", async () => {
  const dte = await client.dte.emit(factura());
  expect(dte.id).toStartWith("dte_");
  expect(dte.tipo).toBe(33);
  expect([dte.monto_neto, dte.monto_iva, dte.monto_total]).toEqual([20_000, 3_800, 23_800]);
  expect(["ENVIADO", "PENDIENTE", "ACEPTADO"]).toContain(dte.estado);
  expect([201, 202]).toContain(dte.lastResponse.status);
  expect(dte.lastResponse.requestId).toStartWith("req_");
  expect(dte.lastResponse.idempotentReplayed).toBe(false);
  expect(JSON.parse(JSON.stringify(dte))).not.toHaveProperty("lastResponse");
  expect((await client.dte.retrieve(dte.id)).folio).toBe(dte.folio);
  expect(new TextDecoder().decode((await client.dte.pdf(dte.id)).slice(0, 5))).toBe("%PDF-");
  expect(new TextDecoder("latin1").decode(await client.dte.xml(dte.id))).toContain(`<Folio>${dte.folio}</Folio>`);
}, 60_000);

test("a list iterates across pages", async () => {
  const rut = uniqueRut();
  const emitted = await client.dte.batch({ documents: [1, 2, 3, 4, 5].map((n) => factura(rut, 1_000 + n)) });
  expect(emitted.results.every((r) => r.success)).toBe(true);
  const ids: string[] = [];
  for await (const dte of client.dte.list({ receptor_rut: rut, limit: 2 })) ids.push(dte.id);
  expect(ids.sort()).toEqual(emitted.results.map((r) => r.data?.id ?? "").sort());
  const first = await client.dte.list({ receptor_rut: rut, limit: 2 });
  expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, total_pages: 3 });
}, 60_000);

test("an unknown document is NotFoundError with status, code and request id", async () => {
  const error = await client.dte.retrieve("dte_01aaaaaaaaaaaaaaaaaaaaaaaa").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotFoundError);
  expect((error as NotFoundError).status).toBe(404);
  expect((error as NotFoundError).code).toBe("NOT_FOUND");
  expect((error as NotFoundError).requestId).toStartWith("req_");
});

test("a validation error carries every field error", async () => {
  const body = factura();
  const { comuna: _omitted, ...receptor } = body.receptor;
  const error = await client.dte
    .emit({ ...body, receptor: { ...receptor, rut: "76192083-0" }, items: [{ nombre: "x", cantidad: 1, precio: -1 }] })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  const validation = error as ValidationError;
  expect([validation.status, validation.code]).toEqual([422, "VALIDATION_ERROR"]);
  const reasons = validation.issues.map((i) => `${i.field}:${i.reason}`);
  expect(reasons).toEqual(expect.arrayContaining(["receptor.rut:invalid_rut", "receptor.comuna:required", "items[0].precio:minimum"]));
});

test("a retry after a dropped connection sends the same key and does not emit twice", async () => {
  const proxy = await startDroppingProxy({ host: "127.0.0.1", port: server.port }, 1);
  try {
    const retrying = new Timbre({ baseUrl: proxy.baseUrl, apiKey: tenant.apiKey, maxRetries: 2, initialRetryDelay: 50 });
    const rut = uniqueRut();
    const dte = await retrying.dte.emit(factura(rut));
    expect(proxy.idempotencyKeys).toHaveLength(2);
    expect(proxy.idempotencyKeys[0]).not.toBeNull();
    expect(proxy.idempotencyKeys[1]).toBe(proxy.idempotencyKeys[0]!);
    // the first try was emitted; the retry got its stored answer
    expect(dte.lastResponse.idempotentReplayed).toBe(true);
    const listed: string[] = [];
    for await (const d of client.dte.list({ receptor_rut: rut })) listed.push(d.id);
    expect(listed).toEqual([dte.id]);
  } finally {
    await proxy.close();
  }
}, 60_000);

test("without retries a dropped connection is a ConnectionError", async () => {
  const proxy = await startDroppingProxy({ host: "127.0.0.1", port: server.port }, 1);
  try {
    const once = new Timbre({ baseUrl: proxy.baseUrl, apiKey: tenant.apiKey, maxRetries: 0 });
    const error = await once.dte.retrieve("dte_01aaaaaaaaaaaaaaaaaaaaaaaa").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  } finally {
    await proxy.close();
  }
});

test("a real webhook delivery verifies; a tampered one is refused", async () => {
  const secret = tenant.webhookSecret ?? "";
  expect(secret).toStartWith("whsec_");
  await client.dte.emit(factura(uniqueRut()));
  const deadline = Date.now() + 60_000;
  while (deliveries.length === 0 && Date.now() < deadline) await Bun.sleep(100);
  const delivery = deliveries[0];
  if (!delivery) throw new Error(`no webhook delivery within 60 s:\n${server.output()}`);
  const event = await webhooks.verify(delivery.body, delivery.headers, secret);
  expect(event.id).toBe(delivery.headers.get("webhook-id") ?? "");
  expect(event.event).toStartWith("dte.");
  expect(event.business_id).toBe(tenant.businessId);
  const tampered = delivery.body.replace('"test"', '"live"');
  expect(tampered).not.toBe(delivery.body);
  await expect(webhooks.verify(tampered, delivery.headers, secret)).rejects.toBeInstanceOf(WebhookVerificationError);
}, 90_000);
