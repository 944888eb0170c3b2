/**
 * Received documents end to end in Debian's Chromium against the REAL server (child process, embedded database,
 * SII sandbox, its own SMTP receiver as both the outgoing relay and the intercambio inbox): a supplier business
 * issues two facturas to the user's other business, mailed to its intercambio address; the receiver sees them in
 * «Recibidos» with their deadline, accepts one with the receipt of goods and claims the other in the sandbox's
 * registry (each then forbidding the other decision); an envelope uploaded again is «Ya recibido», a bare DTE is
 * refused in Spanish; the business page shows the intercambio address; the supplier's document shows its delivery.
 * Skipped, saying why, when the server has no `/v1/received` yet.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { buildEnvelope, decodeLatin1, encodeLatin1 } from "@timbre/core";
import { generateTestCertificate, type TestCertificate } from "@timbre/core/testing";
import type { Page } from "playwright-core";
import { buildDashboard, dashboardDir } from "../index.js";
import { launch, shoot, unlabeledControls } from "./support/browser.js";
import { freePort, routeExists, startServer } from "./support/server.js";

const SUPPLIER = { rut: "96790240-3", razon_social: "Papelera del Sur S.A." };
const BUYER = { rut: "76192083-9", razon_social: "Comercial Los Andes SpA" };
const EMAIL = "ana@empresa.cl";
const PASSWORD = "una-clave-bastante-larga";

await buildDashboard(dashboardDir);
const mailPort = await freePort();
const server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${mailPort}`, SMTP_INBOUND_PORT: String(mailPort), INBOUND_DOMAIN: "in.timbre.test" });
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "es-CL", timezoneId: "America/Santiago", acceptDownloads: true });
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
const page: Page = await context.newPage();
page.setDefaultTimeout(15_000);
const receivedMissing = (await routeExists(server.api, "GET", "/v1/received")) ? null : "GET /v1/received";
if (receivedMissing) console.log(`[dashboard received journey] skipped: the server answers 404 for ${receivedMissing}`);

afterAll(async () => {
  await browser.close();
  await server.stop();
});

let token = "";
const call = async <T>(method: string, path: string, body?: unknown, businessId?: string, form?: FormData): Promise<T> => {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (businessId) headers["x-business-id"] = businessId;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${server.api}/v1${path}`, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const json = (await res.json()) as { data: T; error?: unknown };
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json.error)}`);
  return json.data;
};
const world: { supplier?: string; buyer?: string; address?: string; cert?: TestCertificate; issued: Array<{ id: string; folio: number }> } = { issued: [] };

async function business(data: typeof SUPPLIER, cert: TestCertificate): Promise<string> {
  const b = await call<{ id: string }>("POST", "/businesses", { ...data, giro: "Comercio", acteco: [477399], direccion: "Av. Providencia 1234", comuna: "Providencia" });
  const form = new FormData();
  form.set("file", new File([cert.p12 as Uint8Array<ArrayBuffer>], "firma.p12", { type: "application/x-pkcs12" }));
  form.set("password", cert.password);
  await call("POST", `/businesses/${b.id}/certificate`, undefined, undefined, form);
  return b.id;
}

/** Polls `read` until it gives a value (the sandbox SII and the mail are asynchronous). */
async function until<T>(what: string, read: () => Promise<T | null>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server.logs.join("").slice(-3000)}`);
    await Bun.sleep(500);
  }
}

const heading = () => page.getByRole("heading", { level: 1 });
const go = (path: string) => page.goto(`${server.origin}${path}`);
async function noPhoneOverflow(name: string) {
  expect(await shoot(page, name), `${name}: horizontal scroll at 375 px`).toBeLessThanOrEqual(0);
  expect(await unlabeledControls(page), `${name}: form controls without a label`).toEqual([]);
}

describe.skipIf(receivedMissing !== null)("received documents journey (real server)", () => {
  test("a supplier's two facturas reach the buyer's intercambio address by mail", async () => {
    token = (await (await fetch(`${server.api}/v1/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: EMAIL, password: PASSWORD, nombre: "Ana Pérez" }) })).json() as { data: { access_token: string } }).data.access_token;
    const now = Date.now();
    const cert = await generateTestCertificate({ rut: "11111111-1", name: "ANA PEREZ SOTO", validFrom: new Date(now - 86_400_000), validTo: new Date(now + 365 * 86_400_000), password: "clave-cert" });
    world.cert = cert;
    world.buyer = await business(BUYER, cert);
    world.supplier = await business(SUPPLIER, cert);
    world.address = (await call<{ intercambio: { email: string } }>("GET", `/businesses/${world.buyer}`)).intercambio.email;
    expect(world.address).toEndWith("@in.timbre.test");
    await call("POST", "/sandbox/numerations", { tipo: 33, cantidad: 10 }, world.supplier);
    for (const [nombre, precio] of [["Resmas de papel carta", 5000], ["Cajas de archivo", 2500]] as const) {
      world.issued.push(await call<{ id: string; folio: number }>("POST", "/dte/emit", {
        tipo: 33,
        receptor: { ...BUYER, giro: "Comercio", direccion: "Av. Providencia 1234", comuna: "Providencia", email: world.address },
        items: [{ nombre, cantidad: 20, precio }],
      }, world.supplier));
    }
    const arrived = await until("both facturas in the buyer's Recibidos", async () => {
      const list = await call<Array<{ folio: number; plazo_hasta: string | null }>>("GET", `/received?emisor_rut=${SUPPLIER.rut}`, undefined, world.buyer);
      return list.length === 2 && list.every((d) => d.plazo_hasta !== null) ? list : null;
    });
    expect(arrived.map((d) => d.folio).sort()).toEqual(world.issued.map((d) => d.folio).sort());
  }, 150_000);

  test("«Recibidos»: both listed with their 8-day deadline; accepting one with the receipt of goods", async () => {
    await go("/dashboard/ingresar");
    await page.getByLabel("Correo electrónico").fill(EMAIL);
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Ingresar" }).click();
    await heading().waitFor();
    await page.locator("#business-select").selectOption(world.buyer ?? "");
    await page.getByRole("navigation").getByRole("link", { name: "Recibidos" }).click();
    await page.waitForURL("**/dashboard/recibidos");
    const [first, second] = world.issued;
    for (const d of world.issued) await page.getByRole("row").filter({ hasText: `N° ${d.folio}` }).getByText(/^Vence en [78] días$/).waitFor();
    await page.getByRole("cell", { name: new RegExp(`^${SUPPLIER.razon_social}`) }).first().waitFor();
    await noPhoneOverflow("journey-recibidos");

    await page.getByRole("link", { name: `Factura electrónica N° ${first?.folio}` }).click();
    await page.getByRole("heading", { name: `Factura electrónica N° ${first?.folio}`, level: 1 }).waitFor();
    await page.getByTestId("verificacion").getByText(/^Documento verificado/).waitFor();
    await page.getByRole("cell", { name: "Resmas de papel carta" }).waitFor();
    const panel = page.getByTestId("decision");
    await panel.getByLabel("Recibo de mercaderías o servicios (ERM)").check();
    await panel.getByLabel("Recinto de recepción").fill("Bodega Quilicura");
    await panel.getByRole("button", { name: "Aceptar", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Aceptar" }).click();
    await page.getByText("Documento aceptado, con recibo de mercaderías.").waitFor();
    await page.getByTestId("plazo").getByText("Aceptado", { exact: true }).waitFor();
    for (const text of ["Acepta Contenido del Documento", "Otorga Recibo de Mercaderías o Servicios"]) await page.getByRole("cell", { name: text }).waitFor();
    // accepted: a claim is no longer possible, and the page says so
    expect(await panel.getByRole("button", { name: "Reclamar" }).isDisabled()).toBe(true);
    await panel.getByText("Ya fue aceptado: ya no se puede reclamar.").waitFor();
    await noPhoneOverflow("journey-recibido-aceptado");

    await go(`/dashboard/recibidos`);
    await page.getByRole("link", { name: `Factura electrónica N° ${second?.folio}` }).click();
    await page.getByRole("heading", { name: `Factura electrónica N° ${second?.folio}`, level: 1 }).waitFor();
    await panel.getByLabel(/Reclamo al contenido del documento \(RCD\)/).check();
    await panel.getByLabel("Explicación para el emisor").fill("El precio no es el cotizado");
    await panel.getByRole("button", { name: "Reclamar" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Reclamar" }).click();
    await page.getByText("Documento reclamado.").waitFor();
    await page.getByTestId("plazo").getByText("Reclamado", { exact: true }).waitFor();
    await page.getByRole("cell", { name: "Reclamo al Contenido del Documento" }).waitFor();
    expect(await panel.getByRole("button", { name: "Aceptar", exact: true }).isDisabled()).toBe(true);
    const claimed = await call<{ estado: string }>("GET", `/received?estado=RECLAMADO`, undefined, world.buyer);
    expect(claimed).toHaveLength(1);
  }, 90_000);

  test("«Importar XML»: the same envelope again is «Ya recibido»; a bare DTE is refused in Spanish", async () => {
    const [first] = world.issued;
    const xml = await fetch(`${server.api}/v1/dte/${first?.id}/xml`, { headers: { authorization: `Bearer ${token}`, "x-business-id": world.supplier ?? "" } });
    const dte = decodeLatin1(new Uint8Array(await xml.arrayBuffer()));
    const stamp = new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Santiago", dateStyle: "short", timeStyle: "medium" }).format(new Date()).replace(" ", "T");
    const cert = world.cert as TestCertificate;
    const envelope = buildEnvelope({
      kind: "EnvioDTE", rutEmisor: SUPPLIER.rut, rutEnvia: "11111111-1", rutReceptor: BUYER.rut, resolution: { numero: 0, fecha: "2026-01-01" },
      dtes: [dte], identity: { privateKey: cert.privateKey, certificateDer: cert.certificateDer }, timestamp: stamp,
    });
    await go("/dashboard/recibidos");
    await page.getByRole("link", { name: "Importar XML" }).click();
    const file = page.getByLabel("Archivo XML (EnvioDTE)");
    await file.setInputFiles({ name: "solo-dte.xml", mimeType: "application/xml", buffer: Buffer.from(encodeLatin1(dte)) });
    await page.getByRole("button", { name: "Importar" }).click();
    await page.getByText("El archivo no es un XML válido o no es un EnvioDTE").waitFor();
    await file.setInputFiles({ name: "EnvioDTE.xml", mimeType: "application/xml", buffer: Buffer.from(encodeLatin1(envelope)) });
    await page.getByRole("button", { name: "Importar" }).click();
    const results = page.getByTestId("import-results");
    await results.getByText("1 documento en el sobre: 0 importados.").waitFor();
    await results.getByRole("row").filter({ hasText: `N° ${first?.folio}` }).getByText("Ya recibido").waitFor();
    await go("/dashboard/recibidos/bandeja");
    await heading().filter({ hasText: "Correos no importados" }).waitFor();
  }, 60_000);

  test("the business page: its intercambio address, to copy and register at the SII", async () => {
    await go(`/dashboard/empresas/${world.buyer}`);
    const block = page.getByTestId("intercambio");
    expect(await block.getByLabel("Correo de intercambio de la empresa").inputValue()).toBe(world.address ?? "");
    await block.getByRole("button", { name: "Copiar" }).click();
    await block.getByText("Copiado al portapapeles.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(world.address ?? "");
    await block.getByText(/correo de intercambio y mail de contacto SII/).waitFor();
    await noPhoneOverflow("journey-empresa-intercambio");
  });

  test("the supplier's factura: delivered to the buyer's address, «Reenviar» queues it again", async () => {
    await page.locator("#business-select").selectOption(world.supplier ?? "");
    const [first] = world.issued;
    await go(`/dashboard/documentos/${first?.id}`);
    const panel = page.getByTestId("delivery");
    await panel.getByText("Enviado", { exact: true }).waitFor();
    await panel.getByText(world.address ?? "").waitFor();
    await panel.getByRole("button", { name: "Reenviar" }).click();
    await panel.getByText("Reenvío en curso.").waitFor();
    await noPhoneOverflow("journey-documento-envio");
  }, 30_000);
});
