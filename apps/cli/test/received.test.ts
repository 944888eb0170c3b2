/**
 * The received documents and the delivery to the receiver, with the built CLI against the real server (child
 * process, SII sandbox) whose `SMTP_URL` is a real SMTP server on loopback keeping every message. Business B issues
 * facturas to business A; the SII accepts them and B's delivery mails A the EnvioDTE; A saves that attachment and
 * imports it with `timbre received import`, then lists, shows, downloads, accepts and claims; B sends one again
 * with `timbre dte send`.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type EmitParams, Timbre } from "@timbre/sdk";
import { type MailCapture, startMailCapture } from "../../../packages/sdk/test/support/mail-capture.js";
import { type ServerProcess, startServerProcess } from "../../../packages/sdk/test/support/server-process.js";
import { ensureBuilt, freshHome, removeFreshHomes, runCli } from "./support/run-cli.js";

afterAll(removeFreshHomes);

const coreTesting = (await import(new URL("../../../packages/core/src/testing/index.ts", import.meta.url).href)) as {
  generateTestCertificate(options: Record<string, unknown>): Promise<{ p12: Uint8Array; password: string }>;
};

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";
const toA: EmitParams = {
  tipo: 33,
  receptor: { rut: A_RUT, razon_social: "Compradora A SpA", giro: "Comercio", direccion: "Calle Falsa 123", comuna: "Santiago" },
  items: [{ nombre: "Servicio de consultoría", cantidad: 2, precio: 50000 }],
};

let mail: MailCapture;
let server: ServerProcess;
let b: Timbre;
/** The CLI's environment as A and as B (API key and URL). */
let asA: Record<string, string>;
let asB: Record<string, string>;
let aAddress = "";

beforeAll(async () => {
  ensureBuilt();
  mail = await startMailCapture();
  server = await startServerProcess({ SMTP_URL: `smtp://127.0.0.1:${mail.port}`, INBOUND_DOMAIN: "in.timbre.test" });
  const anon = new Timbre({ baseUrl: server.baseUrl, maxRetries: 0 });
  const registered = await anon.auth.register({ email: `cli-rcv-${crypto.randomUUID()}@example.com`, password: "una clave bien larga", nombre: "Ana" });
  const session = anon.withOptions({ accessToken: registered.access_token });
  const now = Date.now();
  const cert = await coreTesting.generateTestCertificate({ rut: "11111111-1", name: "ANA PEREZ", password: "clave", validFrom: new Date(now - 86_400_000), validTo: new Date(now + 365 * 86_400_000) });
  const tenant = async (rut: string, razon_social: string) => {
    const biz = await session.businesses.create({ rut, razon_social, giro: "Comercio", acteco: [561000], direccion: "Av. Providencia 1234", comuna: "Providencia" });
    await session.businesses.certificate.upload({ id: biz.id, file: cert.p12, password: cert.password });
    const key = await session.tokens.create({ name: "cli received", permissions: ["*"], business_id: biz.id });
    return { key: key.key, email: biz.intercambio.email ?? "" };
  };
  const supplier = await tenant(B_RUT, "Proveedora B SpA");
  const buyer = await tenant(A_RUT, "Compradora A SpA");
  b = new Timbre({ baseUrl: server.baseUrl, apiKey: supplier.key, maxRetries: 0 });
  await b.sandbox.numerations.create({ tipo: 33, cantidad: 10 });
  asA = { TIMBRE_API_KEY: buyer.key, TIMBRE_API_URL: server.baseUrl };
  asB = { TIMBRE_API_KEY: supplier.key, TIMBRE_API_URL: server.baseUrl };
  aAddress = buyer.email;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await mail?.stop();
});

/** B issues a factura to A, the SII accepts it, and its EnvioDTE reaches A's address: saved as a file in `home`. */
async function envelopeMailedToA(home: string): Promise<{ dteId: string; folio: number; file: string }> {
  const dte = await b.dte.emit(toA);
  expect((await b.dte.waitForFinalStatus(dte.id, { interval: 100, timeout: 30_000 })).estado).toBe("ACEPTADO");
  const file = join(home, `EnvioDTE-${dte.folio}.xml`);
  writeFileSync(file, await mail.envelopeFor(aAddress, dte.folio));
  return { dteId: dte.id, folio: dte.folio, file };
}

test("received import → list (filters, deadline) → show → xml → pdf → accept; importing again is a duplicate, accepting again a CONFLICT", async () => {
  const home = freshHome();
  const { folio, file } = await envelopeMailedToA(home);

  const imported = await runCli(["received", "import", file], { home, env: asA });
  expect(imported.stderr).toBe("");
  expect(imported.code).toBe(0);
  expect(imported.stdout).toMatch(new RegExp(`^#0  imported  rcv_\\w+  33/${folio} from ${B_RUT}  \\$119\\.000  verificacion: ok  estado: SIN_RESPUESTA  plazo_hasta: \\d{4}-`));
  // again, as a multipart form with --reply-to: the same document, a duplicate
  const again = await runCli(["received", "import", file, "--reply-to", "dte@proveedor.example", "--json"], { home, env: asA });
  const { results } = again.json as { results: Array<{ success: boolean; duplicate?: boolean; data: { id: string; plazo_hasta: string } }> };
  expect(results).toHaveLength(1);
  expect(results[0]).toMatchObject({ success: true, duplicate: true });
  const { id, plazo_hasta } = results[0]!.data;
  expect(imported.stdout).toContain(id);

  const listed = await runCli(["received", "list", "--emisor-rut", B_RUT, "--estado", "SIN_RESPUESTA"], { home, env: asA });
  expect(listed.code).toBe(0);
  expect(listed.stdout).toMatch(/^ID\s+TIPO\s+FOLIO\s+FECHA\s+EMISOR\s+TOTAL\s+ESTADO\s+PLAZO/);
  const row = listed.stdout.split("\n").find((line) => line.startsWith(id));
  expect(row).toContain(`Proveedora B SpA (${B_RUT})`);
  expect(row).toContain(plazo_hasta);
  const none = await runCli(["received", "list", "--tipo", "34", "--json"], { home, env: asA });
  expect(none.json).toMatchObject({ data: [], pagination: { total: 0 } });
  const all = await runCli(["received", "list", "--all", "--limit", "1", "--json"], { home, env: asA });
  expect((all.json as { data: Array<{ id: string }> }).data.map((d) => d.id)).toContain(id);

  const shown = await runCli(["received", "show", id], { home, env: asA });
  expect(shown.code).toBe(0);
  expect(shown.stdout).toMatch(/verificacion:\s+ok/);
  expect(shown.stdout).toMatch(new RegExp(`plazo_hasta:\\s+${plazo_hasta}`));
  expect(shown.stdout).toMatch(/estado:\s+SIN_RESPUESTA/);

  const xml = await runCli(["received", "xml", id], { home, env: asA });
  expect(xml.code).toBe(0);
  expect(xml.stdout).toContain(`<Folio>${folio}</Folio>`);
  const xmlFile = join(home, "recibida.xml");
  const written = await runCli(["received", "xml", id, "-o", xmlFile], { home, env: asA });
  expect(written.stdout).toContain(`Wrote ${xmlFile}`);
  expect(readFileSync(xmlFile, "latin1")).toContain(`<Folio>${folio}</Folio>`);
  const pdfFile = join(home, "recibida.pdf");
  expect((await runCli(["received", "pdf", id, "-o", pdfFile, "--formato", "termica"], { home, env: asA })).code).toBe(0);
  expect(readFileSync(pdfFile).subarray(0, 5).toString()).toBe("%PDF-");

  const accepted = await runCli(["received", "accept", id, "--recibo-mercaderias", "--recinto", "Bodega central"], { home, env: asA });
  expect(accepted.stderr).toBe("");
  expect(accepted.stdout).toStartWith(`Accepted ${id}.`);
  expect(accepted.stdout).toMatch(/estado:\s+ACEPTADO/);
  expect(accepted.stdout).toContain("Eventos:");
  const twice = await runCli(["received", "accept", id, "--json"], { home, env: asA });
  expect(twice.code).toBe(1);
  expect(twice.json).toMatchObject({ error: { code: "CONFLICT", status: 409 } });
}, 120_000);

test("received claim: the three actions are explained, a bad one is a usage error, RFP is RECLAMADO; a bad envelope is ENVELOPE_INVALID; the inbox", async () => {
  const home = freshHome();
  const help = await runCli(["received", "claim", "--help"], { home, env: asA });
  expect(help.stdout).toContain("RCD  reclamo al contenido");
  expect(help.stdout).toContain("RFP  reclamo por falta parcial de mercaderías");
  expect(help.stdout).toContain("RFT  reclamo por falta total de mercaderías");

  const { file } = await envelopeMailedToA(home);
  const id = ((await runCli(["received", "import", file, "--json"], { home, env: asA })).json as { results: Array<{ data: { id: string } }> }).results[0]!.data.id;
  const wrong = await runCli(["received", "claim", id, "--accion", "XYZ", "--motivo", "x"], { home, env: asA });
  expect(wrong.code).toBe(2);
  const claimed = await runCli(["received", "claim", id, "--accion", "RFP", "--motivo", "Llegó la mitad de lo facturado", "--json"], { home, env: asA });
  expect(claimed.code).toBe(0);
  expect(claimed.json).toMatchObject({ id, estado: "RECLAMADO" });

  const bad = join(home, "bad.xml");
  writeFileSync(bad, "<EnvioDTE>sin firma</EnvioDTE>");
  const refused = await runCli(["received", "import", bad], { home, env: asA });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("[ENVELOPE_INVALID]");
  expect(refused.stderr).toContain("Nothing was kept");
  const missing = await runCli(["received", "import", join(home, "nope.xml")], { home, env: asA });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain("Cannot read");

  const inbox = await runCli(["received", "inbox", "--json"], { home, env: asA });
  expect(inbox.code).toBe(0);
  expect(inbox.json).toMatchObject({ data: expect.any(Array), pagination: { page: 1 } });
  const unknown = await runCli(["received", "show", "rcv_00000000000000000000000000"], { home, env: asA });
  expect(unknown.code).toBe(4);
}, 120_000);

test("dte send: mails the accepted document again to one address and prints the intercambio; outside the test allow-list SIN_CORREO", async () => {
  const home = freshHome();
  const { dteId, folio } = await envelopeMailedToA(home);
  const mailsBefore = mail.mails.filter((m) => m.to.includes(aAddress)).length;

  const sent = await runCli(["dte", "send", dteId, "--email", aAddress], { home, env: asB });
  expect(sent.stderr).toBe("");
  expect(sent.code).toBe(0);
  expect(sent.stdout).toMatch(/estado:\s+PENDIENTE/);
  expect(sent.stdout).toMatch(new RegExp(`destinatarios:\\s+${aAddress}`));
  const deadline = Date.now() + 30_000;
  while (mail.mails.filter((m) => m.to.includes(aAddress)).length <= mailsBefore && Date.now() < deadline) await Bun.sleep(100);
  const resent = mail.mails.filter((m) => m.to.includes(aAddress)).slice(mailsBefore);
  expect(resent.some((m) => m.attachments.some((a) => new TextDecoder("latin1").decode(a.content).includes(`<Folio>${folio}</Folio>`)))).toBe(true);

  const stranger = await runCli(["dte", "send", dteId, "--email", "contabilidad@example.com", "--json"], { home, env: asB });
  expect(stranger.code).toBe(0);
  expect(stranger.json).toMatchObject({ estado: "SIN_CORREO", destinatarios: ["contabilidad@example.com"], error: expect.stringContaining("SIN_CORREO") });
}, 120_000);
