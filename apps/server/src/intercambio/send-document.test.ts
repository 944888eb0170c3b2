// `intercambio` of GET /dte/{id} and POST /dte/{id}/enviar (API.md §11) over real SMTP on loopback: the mail worker
// sends through SMTP_URL, here Timbre's own receiver (smtp-server), which takes the mail for A's intercambio address.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { freePort } from "../../test/support/free-port.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";
import { expectError } from "../../test/support/fixtures.js";
import { outboxOf } from "../../test/support/exchange.js";
import { exchangeOutbox } from "../db/received.js";
import { refreshDocumentStatus } from "../dispatch/refresh-document-status.js";
import { createMailWorker } from "./send-outbox.js";
import { startSmtpReceiver, type SmtpReceiver } from "./smtp-receiver.js";

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";

describeDrivers("delivery to the receiver (API.md §11)", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof emitter>>;
  let b: Awaited<ReturnType<typeof emitter>>;
  let receiver: SmtpReceiver;
  let aAddress = "";
  beforeAll(async () => {
    const port = await freePort();
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", SMTP_URL: `smtp://127.0.0.1:${port}`, INBOUND_DOMAIN: "in.timbre.test" });
    receiver = await startSmtpReceiver(h.deps, { port });
    b = await emitter(h, { rut: B_RUT, tipos: [33, 39] });
    a = await emitter(h, { rut: A_RUT, tipos: [] });
    aAddress = (await h.call("GET", `/v1/businesses/${a.business.id}`, { key: a.key.key })).json.data.intercambio.email;
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  const intercambio = async (id: string) => (await h.call("GET", `/v1/dte/${id}`, { key: b.key.key })).json.data.intercambio;
  const enviar = (id: string, body: unknown) => h.call("POST", `/v1/dte/${id}/enviar`, { key: b.key.key, body });

  test("a factura: PENDIENTE before the SII accepts it (enviar is 409), ENVIADO to A's listed address after; re-sends are capped at 5 a day", async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA", email: "compras@example.com" } }) });
    const id = res.json.data.id as string;
    expect(await intercambio(id)).toEqual({ destinatarios: [], estado: "PENDIENTE", enviado_at: null, intentos: 0, error: null, respuestas: [] });
    const early = await enviar(id, {});
    expectError(early, 409, "CONFLICT");
    expect(early.json.error.details.reason).toBe("not_accepted");

    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    await createMailWorker(h.deps).tick();
    const delivered = await intercambio(id);
    // example.com is not mailed from the test environment; A's listed intercambio address is.
    expect(delivered).toMatchObject({ destinatarios: [aAddress], estado: "ENVIADO", intentos: 1, error: null, respuestas: [] });
    expect(Number.isNaN(Date.parse(delivered.enviado_at))).toBe(false);

    // to an address the test environment may not mail: answered at once, nothing sent
    const stranger = await enviar(id, { email: "someone@example.com" });
    expect(stranger.status).toBe(202);
    expect(stranger.json.data).toMatchObject({ estado: "SIN_CORREO", destinatarios: ["someone@example.com"], enviado_at: delivered.enviado_at, intentos: 1 });
    expect(stranger.json.data.error).toContain("MAIL_TEST_ALLOWLIST");

    // again to its receivers: a new delivery, sent by the worker
    const again = await enviar(id, {});
    expect(again.status).toBe(202);
    expect(again.json.data.estado).toBe("PENDIENTE");
    await createMailWorker(h.deps).tick();
    expect(await intercambio(id)).toMatchObject({ estado: "ENVIADO", destinatarios: [aAddress], intentos: 2 });

    // to one given address (A's own): only there
    const given = await enviar(id, { email: aAddress.toUpperCase() });
    expect(given.status).toBe(202);
    await createMailWorker(h.deps).tick();
    expect(await intercambio(id)).toMatchObject({ estado: "ENVIADO", destinatarios: [aAddress.toUpperCase()], intentos: 3 });

    expect((await enviar(id, {})).status).toBe(202); // the fifth of the day (the automatic one counts)
    const capped = await enviar(id, {});
    expectError(capped, 429, "RATE_LIMITED");
    expect(capped.json.error.details.reason).toBe("document_daily_sends");
    expect(capped.json.error.details.retry_after).toBeGreaterThan(0);
    expect((await outboxOf(h, b.business.id, "entrega")).filter((r) => r.subjectId === id)).toHaveLength(5);
  }, 120_000);

  test("a boleta: NO_APLICA on its own; enviar needs an address and mails the DTE as stored plus the PDF", async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(39) });
    expect(res.status).toBe(201);
    const id = res.json.data.id as string;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    expect((await intercambio(id)).estado).toBe("NO_APLICA");
    const missing = await enviar(id, {});
    expectError(missing, 422, "VALIDATION_ERROR");
    expect(missing.json.error.details).toMatchObject({ field: "email", reason: "required" });
    expectError(await enviar(id, { email: "not an address" }), 422, "VALIDATION_ERROR");
    expectError(await enviar(id, { email: aAddress, cc: "x@y.cl" }), 422, "VALIDATION_ERROR");

    expect((await enviar(id, { email: aAddress })).status).toBe(202);
    await createMailWorker(h.deps).tick();
    expect(await intercambio(id)).toMatchObject({ estado: "ENVIADO", destinatarios: [aAddress], intentos: 1 });
    const [row] = (await outboxOf(h, b.business.id, "entrega")).filter((r) => r.subjectId === id);
    const [sent] = await h.deps.db.select().from(exchangeOutbox).where(eq(exchangeOutbox.id, row!.id));
    expect(sent!.attachments.map((x) => x.contentType)).toEqual(["application/xml", "application/pdf"]);
    const xml = Buffer.from(sent!.attachments[0]!.content, "base64").toString("latin1");
    expect(xml).toMatch(/^<\?xml [^>]*\?>\s*<DTE[\s>]/);
    expect(xml).toContain("<TipoDTE>39</TipoDTE>");
  }, 120_000);

  test("another business's document is 404", async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA" } }) });
    expectError(await h.call("POST", `/v1/dte/${res.json.data.id}/enviar`, { key: a.key.key, body: {} }), 404, "NOT_FOUND");
  }, 60_000);
});
