/**
 * End to end, intercambio: the SDK against the real server (in process, SII sandbox, workers running) with Timbre's
 * own SMTP receiver on loopback as `SMTP_URL`. Business B issues facturas to business A; once the SII accepts them
 * the mail worker delivers them to A's intercambio address, where they become A's received documents; A lists,
 * downloads, accepts and claims them; B sees the delivery and re-sends it with `dte.enviar`.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ConflictError, NotFoundError, Timbre, ValidationError } from "../src/index.js";
import type { EmitParams, ReceivedDocument } from "../src/index.js";
import { type RealServer, startRealServer } from "./support/real-server.js";
import { freePort } from "./support/server-process.js";

const smtpPort = await freePort();
const started = await startRealServer({ SMTP_INBOUND_PORT: String(smtpPort), SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, INBOUND_DOMAIN: "in.timbre.test" });
if ("unavailable" in started) throw new Error(`SDK end-to-end needs apps/server: ${started.unavailable}`);
const server: RealServer = started;
afterAll(() => server.stop());

const coreTesting = (await import(new URL("../../core/src/testing/index.ts", import.meta.url).href)) as {
  generateTestCertificate(options: Record<string, unknown>): Promise<{ p12: Uint8Array; password: string }>;
};

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";
const toA: EmitParams = {
  tipo: 33,
  receptor: { rut: A_RUT, razon_social: "Compradora A SpA", giro: "Comercio", direccion: "Calle Falsa 123", comuna: "Santiago" },
  items: [{ nombre: "Servicio de consultoría", cantidad: 2, precio: 50000 }],
};

let a: Timbre;
let b: Timbre;
let aAddress = "";
let bAddress = "";

beforeAll(async () => {
  const anon = new Timbre({ baseUrl: server.baseUrl, maxRetries: 0 });
  const registered = await anon.auth.register({ email: `rcv-${crypto.randomUUID()}@example.com`, password: "una clave bien larga", nombre: "Ana" });
  const session = anon.withOptions({ accessToken: registered.access_token });
  const now = Date.now();
  const cert = await coreTesting.generateTestCertificate({ rut: "11111111-1", name: "ANA PEREZ", password: "clave", validFrom: new Date(now - 86_400_000), validTo: new Date(now + 365 * 86_400_000) });
  const clientFor = async (rut: string, razon_social: string) => {
    const biz = await session.businesses.create({ rut, razon_social, giro: "Comercio", acteco: [561000], direccion: "Av. Providencia 1234", comuna: "Providencia" });
    await session.businesses.certificate.upload({ id: biz.id, file: cert.p12, password: cert.password });
    const key = await session.tokens.create({ name: "e2e", permissions: ["*"], business_id: biz.id });
    return { client: new Timbre({ baseUrl: server.baseUrl, apiKey: key.key, maxRetries: 0 }), email: biz.intercambio.email };
  };
  const bb = await clientFor(B_RUT, "Proveedora B SpA");
  const aa = await clientFor(A_RUT, "Compradora A SpA");
  b = bb.client;
  a = aa.client;
  aAddress = aa.email ?? "";
  bAddress = bb.email ?? "";
  await b.sandbox.numerations.create({ tipo: 33, cantidad: 10 });
}, 60_000);

/** B issues a factura to A and waits for the SII's acceptance; then waits until A has received it by mail. */
async function deliveredToA(): Promise<{ dteId: string; received: ReceivedDocument }> {
  const dte = await b.dte.emit(toA);
  expect((await b.dte.waitForFinalStatus(dte.id, { interval: 100, timeout: 20_000 })).estado).toBe("ACEPTADO");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for await (const doc of a.received.list({ emisor_rut: B_RUT })) if (doc.folio === dte.folio) return { dteId: dte.id, received: doc };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`folio ${dte.folio} never reached A`);
}

test("received: delivered by mail, listed, retrieved, downloaded, accepted once; B sees ENVIADO and re-sends", async () => {
  expect(aAddress).toMatch(/^[0-9a-f]{32}@in\.timbre\.test$/);
  const { dteId, received } = await deliveredToA();
  expect(received).toMatchObject({ tipo: 33, estado: "SIN_RESPUESTA", emisor: { rut: B_RUT }, verificacion: { firma: "ok", timbre: "ok", caf: "ok", receptor: "ok" } });
  expect((await a.received.retrieve(received.id)).id).toBe(received.id);
  const xml = new TextDecoder("latin1").decode(await a.received.xml(received.id));
  expect(xml).toContain(`<Folio>${received.folio}</Folio>`);
  const pdf = await a.received.pdf(received.id, { formato: "termica" });
  expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");

  const accepted = await a.received.accept(received.id);
  expect(accepted.estado).toBe("ACEPTADO");
  await expect(a.received.accept(received.id)).rejects.toBeInstanceOf(ConflictError);

  const delivery = (await b.dte.retrieve(dteId)).intercambio;
  expect(delivery).toMatchObject({ estado: "ENVIADO", destinatarios: [aAddress], error: null });
  const again = await b.dte.enviar(dteId, { email: aAddress });
  expect(again.lastResponse.status).toBe(202);
  expect(again).toMatchObject({ estado: "PENDIENTE", destinatarios: [aAddress] });
}, 60_000);

test("received: a claim is RECLAMADO; a bad envelope is ENVELOPE_INVALID and nothing is kept; the inbox", async () => {
  const { dteId, received } = await deliveredToA();
  const claimed = await a.received.claim(received.id, { accion: "RCD", motivo: "Precio distinto al acordado" });
  expect(claimed.estado).toBe("RECLAMADO");

  const before = (await a.received.list()).pagination.total;
  for (const xml of ["<EnvioDTE>no firmado</EnvioDTE>", new TextEncoder().encode("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e \"x\">]><EnvioDTE/>")]) {
    const refused = await a.received.import({ xml }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).code).toBe("ENVELOPE_INVALID");
  }
  expect((await a.received.list()).pagination.total).toBe(before);
  // A's answers (acuse, result) reach B's address and are recorded on B's document: the claim is ResultadoDTE 2.
  const deadline = Date.now() + 10_000;
  const rejectedByA = async () => (await b.dte.retrieve(dteId)).intercambio.respuestas.some((r) => r.tipo === "resultado" && r.codigo === 2);
  while (!(await rejectedByA()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await rejectedByA()).toBe(true);
}, 60_000);

test("issuers: the sandbox's list holds its businesses with their intercambio addresses; not listed is NotFoundError, a bad RUT ValidationError", async () => {
  const issuer = await a.issuers.retrieve("76.192.083-9");
  expect(issuer).toMatchObject({ rut: B_RUT, razon_social: "Proveedora B SpA", correo_intercambio: bAddress, resolucion: { numero: 0 } });
  expect(bAddress).toMatch(/@in\.timbre\.test$/);
  await expect(a.issuers.retrieve("12345678-5")).rejects.toBeInstanceOf(NotFoundError);
  await expect(a.issuers.retrieve("76192083-8")).rejects.toBeInstanceOf(ValidationError);
});
