/**
 * The dashboard's user journey in Debian's Chromium against the REAL server (child process, embedded database,
 * SII sandbox): sign up → business → certificate → sandbox CAF → API key (read once) → webhook → a document
 * emitted with that key reaching ACEPTADO in the list → its PDF → annulment → emission from the form → a spreadsheet
 * (CSV) import with a failed row, uploaded twice → guías de despacho (52) from the form → a factura its receiver
 * claims in the SII's registry → sign out / in.
 * Steps whose endpoints the server does not have yet are separate tests, skipped (with the reason printed) only
 * when the server answers 404 for their route. `SCREENSHOTS=1` also writes docs/screenshots/*.png.
 */
import { readFileSync } from "node:fs";
import * as XLSX from "xlsx";
import { afterAll, describe, expect, test } from "bun:test";
import { generateTestCertificate } from "@timbre/core/testing";
import { readEmissionSheet } from "@timbre/sdk/csv";
import type { Browser, Locator, Page, Request } from "playwright-core";
import { buildDashboard, dashboardDir } from "../index.js";
import { launch, shoot, unlabeledControls } from "./support/browser.js";
import { routeExists, startReceiver, startServer } from "./support/server.js";

await buildDashboard(dashboardDir);
const server = await startServer();
const receiver = startReceiver();
const browser: Browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "es-CL", timezoneId: "America/Santiago" });
const page: Page = await context.newPage();
page.setDefaultTimeout(15_000);

const missing = async (method: string, path: string) => ((await routeExists(server.api, method, path)) ? null : `${method} ${path}`);
const sandboxMissing = await missing("POST", "/v1/sandbox/numerations");
const emissionMissing = (await Promise.all([missing("POST", "/v1/dte/emit"), missing("GET", "/v1/dte"), missing("GET", "/v1/events")])).filter(Boolean).join(", ");
const batchMissing = await missing("POST", "/v1/dte/batch");
const acceptanceMissing = await missing("GET", "/v1/dte/dte_x/aceptacion");
if (acceptanceMissing) console.log(`[dashboard journey] receiver's acceptance skipped: the server answers 404 for ${acceptanceMissing}`);
if (batchMissing) console.log(`[dashboard journey] spreadsheet import skipped: the server answers 404 for ${batchMissing}`);
if (sandboxMissing) console.log(`[dashboard journey] sandbox CAF step skipped: the server answers 404 for ${sandboxMissing}`);
if (emissionMissing) console.log(`[dashboard journey] emission steps skipped: the server answers 404 for ${emissionMissing}`);
if (server.proxied) console.log("[dashboard journey] app.ts does not mount the dashboard yet: served through a same-origin front");

const EMAIL = "ana@empresa.cl";
const PASSWORD = "una-clave-bastante-larga";
const journey: { businessId?: string; key?: string; dteId?: string } = {};

afterAll(async () => {
  await browser.close();
  receiver.stop();
  await server.stop();
});

const go = (path: string) => page.goto(`${server.origin}${path}`);
/** Emits through the API with the journey's key (201 or 202) and gives the document. */
async function emitWithKey(body: Record<string, unknown>): Promise<{ id: string; folio: number }> {
  const emit = await fetch(`${server.api}/v1/dte/emit`, {
    method: "POST",
    headers: { "x-api-key": journey.key ?? "", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect([201, 202]).toContain(emit.status);
  return ((await emit.json()) as { data: { id: string; folio: number } }).data;
}
const heading = () => page.getByRole("heading", { level: 1 });
async function expectNoPhoneOverflow(name: string) {
  expect(await shoot(page, name), `${name}: horizontal scroll at 375 px`).toBeLessThanOrEqual(0);
  expect(await unlabeledControls(page), `${name}: form controls without a label`).toEqual([]);
}
/** Horizontal scroll at 375 px, for states not worth a screenshot. */
async function phoneOverflow(): Promise<number> {
  await page.setViewportSize({ width: 375, height: 812 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.setViewportSize({ width: 1280, height: 800 });
  return overflow;
}
/** Clicks a download link and reads the saved file (the CSP keeps `fetch` off `blob:` URLs in the page). */
async function downloaded(linkToFile: Locator): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent("download"), linkToFile.click()]);
  return readFileSync(await download.path(), "utf8");
}
async function storageDump() {
  return page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
}

describe("dashboard journey", () => {
  test("sign up (field errors from the API next to the field), session survives a reload", async () => {
    await go("/");
    await page.waitForURL("**/dashboard/ingresar");
    await expect(heading().textContent()).resolves.toBe("Ingresar");
    await expectNoPhoneOverflow("ingresar");
    await page.getByRole("link", { name: "Crea una" }).click();
    await page.waitForURL("**/dashboard/registro");
    await page.getByLabel("Nombre").fill("Ana Pérez");
    await page.getByLabel("Correo electrónico").fill(EMAIL);
    await page.getByLabel("Contraseña").fill("corta");
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    const passwordError = page.locator('[data-field="password"] .field-error');
    await passwordError.waitFor();
    expect(await passwordError.textContent()).toContain("corto");
    expect(await page.getByLabel("Contraseña").getAttribute("aria-invalid")).toBe("true");
    await expect(page.getByRole("alert").first().isVisible()).resolves.toBe(true);
    await expectNoPhoneOverflow("registro-error");
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await page.waitForURL("**/dashboard/empresas/nueva");
    await expect(heading().textContent()).resolves.toBe("Registra tu primera empresa");
    const stored = JSON.parse(await storageDump()) as { local: Record<string, string>; session: Record<string, string> };
    expect(Object.keys(stored.session)).toEqual(["timbre.refresh"]);
    expect(JSON.stringify(stored)).not.toContain("eyJ"); // no access token (JWT) in storage
    await page.reload();
    await expect(heading().textContent()).resolves.toBe("Registra tu primera empresa");
  }, 60_000);

  test("create a business (RUT check digit error shown on the field), upload its certificate", async () => {
    await page.getByLabel("RUT").fill("76.192.083-0");
    await page.getByLabel("Razón social").fill("Comercial Los Andes SpA");
    await page.getByLabel("Giro").fill("Venta de artículos de oficina");
    await page.getByLabel("Códigos de actividad económica").fill("477399");
    await page.getByLabel("Dirección").fill("Av. Providencia 1234");
    await page.getByLabel("Comuna").fill("Providencia");
    await page.getByLabel("Ciudad").fill("Santiago");
    await page.getByRole("button", { name: "Registrar empresa" }).click();
    const rutError = page.locator('[data-field="rut"] .field-error');
    await rutError.waitFor();
    expect(await rutError.textContent()).toContain("dígito verificador");
    await expectNoPhoneOverflow("empresa-nueva");
    await page.getByLabel("RUT").fill("76.192.083-9");
    await page.getByRole("button", { name: "Registrar empresa" }).click();
    await page.waitForURL(/\/dashboard\/empresas\/biz_/);
    journey.businessId = page.url().split("/").pop();
    await page.getByText("Empresa registrada").waitFor();
    expect(await page.locator("#business-select").inputValue()).toBe(journey.businessId ?? "");

    const now = new Date();
    const soon = await generateTestCertificate({ rut: "11111111-1", name: "ANA PEREZ SOTO", validFrom: new Date(now.getTime() - 86_400_000), validTo: new Date(now.getTime() + 10 * 86_400_000), password: "clave-cert" });
    const good = await generateTestCertificate({ rut: "11111111-1", name: "ANA PEREZ SOTO", validFrom: new Date(now.getTime() - 86_400_000), validTo: new Date(now.getTime() + 365 * 86_400_000), password: "clave-cert" });
    const upload = async (p12: Uint8Array, password: string) => {
      await page.getByLabel("Archivo del certificado (.p12 / .pfx)").setInputFiles({ name: "firma.p12", mimeType: "application/x-pkcs12", buffer: Buffer.from(p12) });
      await page.getByLabel("Contraseña del certificado").fill(password);
      await page.getByRole("button", { name: /(Subir|Reemplazar) certificado/ }).click();
    };
    await upload(good.p12, "equivocada");
    await page.getByText("La contraseña del certificado no es correcta.").waitFor();
    await upload(soon.p12, "clave-cert");
    await page.getByText(/El certificado vence en \d+ días/).waitFor();
    await upload(good.p12, "clave-cert");
    await page.getByText(/El certificado vence en/).waitFor({ state: "detached" });
    await page.getByText("Certificado guardado.").waitFor();
    await page.getByText("ANA PEREZ SOTO").first().waitFor();
    await page.getByText("11111111-1").waitFor();
    expect(await page.getByText(/vence en \d+ días/).count()).toBe(0);
    await expectNoPhoneOverflow("empresa");
    await page.getByLabel("Giro").fill("Venta al por menor de artículos de oficina");
    await page.getByRole("button", { name: "Guardar cambios" }).click();
    await page.getByText("Cambios guardados.").waitFor();
    await page.getByRole("link", { name: "Empresas", exact: true }).click();
    await page.getByRole("cell", { name: "Vigente" }).waitFor();
    await expectNoPhoneOverflow("empresas");
  }, 90_000);

  test("API key: shown once with copy, listed as prefix…last4, never stored; revoke with confirmation", async () => {
    await page.getByRole("link", { name: "Claves API" }).click();
    await page.waitForURL("**/dashboard/claves");
    await page.getByLabel("Nombre").fill("ERP pruebas");
    await page.getByLabel(/numerations:write/).check();
    await page.getByRole("button", { name: "Crear clave" }).click();
    const secret = page.locator("#secret-value");
    await secret.waitFor();
    const key = await secret.inputValue();
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    journey.key = key;
    await page.getByText("es la única vez que se muestra").waitFor();
    await page.getByRole("cell", { name: `${key.slice(0, 12)}…${key.slice(-4)}` }).waitFor();
    expect(await storageDump()).not.toContain(key);
    expect(page.url()).not.toContain(key);
    await expectNoPhoneOverflow("claves-creada");
    await page.getByRole("button", { name: "Ya la guardé" }).click();
    expect(await page.content()).not.toContain(key);
    const me = await fetch(`${server.api}/v1/auth/me`, { headers: { "x-api-key": key } });
    expect(me.status).toBe(200);

    await page.getByLabel("Nombre").fill("Temporal");
    await page.getByRole("button", { name: "Crear clave" }).click();
    const temporary = await page.locator("#secret-value").inputValue();
    // Leaving the page wipes the one-time view.
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("link", { name: "Claves API" }).click();
    await page.getByRole("heading", { name: "Claves de la empresa" }).waitFor();
    expect(await page.content()).not.toContain(temporary);
    await page.getByRole("button", { name: "Revocar la clave Temporal" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revocar clave" }).click();
    await page.getByRole("cell", { name: "Revocada" }).waitFor();
    expect((await fetch(`${server.api}/v1/auth/me`, { headers: { "x-api-key": temporary } })).status).toBe(401);
    await expectNoPhoneOverflow("claves");
  }, 60_000);

  test("webhook: URL saved, secret revealed once, rotation shows a new one", async () => {
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("URL de destino").fill(receiver.url);
    await page.getByRole("button", { name: "Guardar URL" }).click();
    const first = await page.locator("#secret-value").inputValue();
    expect(first).toMatch(/^whsec_/);
    await expectNoPhoneOverflow("webhook-secreto");
    await page.getByRole("button", { name: "Ya la guardé" }).click();
    await page.getByRole("button", { name: "Rotar secreto" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotar secreto" }).click();
    const second = await page.locator("#secret-value").inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(await storageDump()).not.toContain("whsec_");
    await page.getByRole("link", { name: "Documentos" }).click();
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("URL de destino").waitFor();
    expect(await page.content()).not.toContain("whsec_");
    expect(await page.getByLabel("URL de destino").inputValue()).toBe(receiver.url);
    await expectNoPhoneOverflow("webhooks");
  }, 60_000);

  test.skipIf(sandboxMissing === null)("sandbox CAF button explains a server not in sandbox mode (404)", async () => {
    await page.getByRole("link", { name: "Folios (CAF)" }).click();
    await page.getByRole("button", { name: "Emitir CAF de prueba" }).click();
    await page.getByText("no está en modo sandbox").waitFor();
    await expectNoPhoneOverflow("folios");
  }, 30_000);

  test.skipIf(sandboxMissing !== null)("sandbox CAF issued from the Folios page (33, 61 and 39)", async () => {
    await page.getByRole("link", { name: "Folios (CAF)" }).click();
    for (const tipo of ["33", "61", "39"]) {
      await page.getByLabel("Tipo de documento").selectOption(tipo);
      await page.getByLabel("Cantidad de folios").fill("50");
      await page.getByRole("button", { name: "Emitir CAF de prueba" }).click();
      await page.getByText(/CAF de prueba emitido/).waitFor();
    }
    expect(await page.getByRole("cell", { name: "Activa" }).count()).toBe(3);
    await page.getByLabel("Archivo CAF (XML del SII)").setInputFiles({ name: "caf.xml", mimeType: "application/xml", buffer: Buffer.from("<AUTORIZACION><CAF>") });
    await page.getByRole("button", { name: "Subir CAF" }).click();
    await page.locator(".alert-error").filter({ hasText: /CAF/ }).waitFor();
    await expectNoPhoneOverflow("folios");
  }, 60_000);

  test.skipIf(Boolean(sandboxMissing || emissionMissing))("a document emitted with the key reaches ACEPTADO in the list; detail, PDF, webhook, annulment", async () => {
    const key = journey.key ?? "";
    const dte = await emitWithKey({
      tipo: 33,
      receptor: { rut: "77777777-7", razon_social: "Cliente de Prueba Ltda", giro: "Servicios", direccion: "Huérfanos 1000", comuna: "Santiago" },
      items: [{ nombre: "Resmas de papel", cantidad: 3, precio: 4990 }],
    });
    journey.dteId = dte.id;

    await page.getByRole("link", { name: "Documentos" }).click();
    const deadline = Date.now() + 60_000;
    for (;;) {
      await page.getByRole("heading", { name: "Documentos", level: 1 }).waitFor();
      if ((await page.getByRole("cell", { name: "Aceptado", exact: true }).count()) > 0) break;
      if (Date.now() > deadline) throw new Error("the document did not reach ACEPTADO in 60 s");
      await page.waitForTimeout(1000);
      await page.reload();
    }
    await expectNoPhoneOverflow("journey-documentos");
    await page.getByRole("link", { name: new RegExp(`N° ${dte.folio}`) }).click();
    await page.waitForURL(`**/dashboard/documentos/${dte.id}`);
    const pdfResponse = page.waitForResponse((r) => r.url().endsWith(`/v1/dte/${dte.id}/pdf`));
    await page.getByRole("button", { name: "Ver PDF" }).click();
    const pdf = await pdfResponse;
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toStartWith("application/pdf");
    expect(Number(pdf.headers()["content-length"])).toBeGreaterThan(1000);
    // (playwright cannot read this body back under Bun; the same bytes straight from the API:)
    const direct = await fetch(`${server.api}/v1/dte/${dte.id}/pdf`, { headers: { "x-api-key": key } });
    expect(new TextDecoder().decode(new Uint8Array(await direct.arrayBuffer()).subarray(0, 5))).toBe("%PDF-");
    const frame = page.getByTestId("pdf-frame");
    await frame.waitFor();
    expect((await frame.getAttribute("src")) ?? "").toStartWith("blob:");
    await page.waitForTimeout(1500);
    await expectNoPhoneOverflow("journey-documento");

    const hookDeadline = Date.now() + 30_000;
    while (receiver.received.length === 0 && Date.now() < hookDeadline) await Bun.sleep(250);
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received[0]?.headers["webhook-signature"]).toStartWith("v1,");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByText("Cambio de estado").first().waitFor();
    await expectNoPhoneOverflow("journey-webhooks-eventos");

    await page.goto(`${server.origin}/dashboard/documentos/${dte.id}`);
    await page.getByRole("button", { name: "Anular" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Emitir nota de crédito" }).click();
    await page.getByText(/Se emitió la nota de crédito N° \d+/).waitFor();
    await expect(heading().textContent()).resolves.toContain("Nota de crédito electrónica");
    await go("/dashboard/documentos?tipo=61");
    await page.getByRole("cell", { name: /Nota de crédito/ }).first().waitFor();
    expect(await page.getByRole("cell", { name: /Nota de crédito/ }).count()).toBe(1);
    expect(await page.getByRole("cell", { name: /Factura electrónica/ }).count()).toBe(0);
  }, 180_000);

  test.skipIf(Boolean(sandboxMissing || emissionMissing))("emit from the form: errors next to their fields, totals as typed, one folio; a credit note started from the factura; a boleta to a consumer", async () => {
    const key = journey.key ?? "";
    const listed = async () => ((await (await fetch(`${server.api}/v1/dte?limit=100`, { headers: { "x-api-key": key } })).json()) as { data: Array<{ id: string }> }).data.length;
    const before = await listed();
    const input = (name: string) => page.locator(`[name="${name}"]`);
    const fieldError = (name: string) => page.locator(`[data-field="${name}"] .field-error`);
    await go("/dashboard/documentos");
    await page.getByRole("link", { name: "Emitir documento" }).first().click();
    await page.waitForURL("**/dashboard/documentos/nuevo");
    await page.getByRole("heading", { name: "Emitir documento", level: 1 }).waitFor();
    await page.getByText(/Quedan \d+ folios\./).waitFor(); // the 33 range issued above, less the one emitted
    expect(await page.getByRole("group", { name: "Documento que modifica" }).isVisible()).toBe(false); // notes only
    expect(await page.getByLabel("Forma de pago").isVisible()).toBe(true);

    // A price that is not a number is caught here; a wrong check digit and a missing comuna by the server.
    await page.getByRole("textbox", { name: "RUT", exact: true }).fill("76.192.083-0");
    await page.getByRole("textbox", { name: "Razón social o nombre" }).fill("Tostaduría del Sur Ltda.");
    await page.getByRole("textbox", { name: "Giro" }).fill("Comercio de café");
    await page.getByRole("textbox", { name: "Dirección" }).fill("Los Aromos 45");
    await input("items[0].nombre").fill("Café en grano 1 kg");
    await input("items[0].cantidad").fill("3");
    await input("items[0].precio").fill("doce mil");
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await fieldError("items[0].precio").filter({ hasText: "Escribe un número" }).waitFor();
    await input("items[0].precio").fill("12.990"); // thousands with a dot, as prices are written in Chile
    await page.locator(".line").first().getByText("Descripción", { exact: true }).click();
    await input("items[0].descripcion").fill("Tueste medio, grano entero");
    await page.getByText("Monto: $38.970").waitFor();
    await page.getByRole("button", { name: "+ Agregar ítem" }).click();
    await input("items[1].nombre").fill("Filtros de papel");
    await input("items[1].cantidad").fill("2,5");
    await input("items[1].precio").fill("1490,4");
    await input("items[1].descuento_porcentaje").fill("10");
    await page.getByText("Monto: $3.353").waitFor(); // 3 726 less 10 % (372,6 → 373)
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await fieldError("receptor.rut").filter({ hasText: "dígito verificador" }).waitFor();
    await fieldError("receptor.comuna").filter({ hasText: "obligatorio" }).waitFor();
    expect(await input("receptor.rut").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("dialog").count()).toBe(0);
    await expectNoPhoneOverflow("emitir-errores");
    expect(await listed()).toBe(before);

    await page.getByRole("textbox", { name: "RUT", exact: true }).fill("76.192.083-9");
    await page.getByRole("textbox", { name: "Comuna" }).fill("Temuco");
    expect(await page.getByLabel("Forma de pago").inputValue()).toBe("2"); // what the SII assumes when it is not said
    await page.getByLabel("Forma de pago").selectOption("1");
    const totals = page.getByRole("region", { name: "Totales" });
    await totals.getByText("$50.364").waitFor(); // neto 42 323 + IVA 8 041, computed as typed
    const previewAnswer = page.waitForResponse((r) => r.url().includes("/v1/dte/preview?format=pdf"));
    await page.getByRole("button", { name: "Vista previa PDF" }).click();
    expect((await previewAnswer).status()).toBe(200);
    await page.getByTestId("preview-frame").waitFor();
    expect(await listed()).toBe(before); // a preview stores nothing
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("¿Emitir Factura electrónica por $50.364?").waitFor();
    await dialog.getByRole("button", { name: "Emitir" }).click();
    await page.waitForURL(/\/dashboard\/documentos\/dte_/);
    await page.getByText(/Factura electrónica N° \d+ emitida/).waitFor();
    const facturaId = page.url().split("/").pop() ?? "";
    expect(await listed()).toBe(before + 1);
    const factura = ((await (await fetch(`${server.api}/v1/dte/${facturaId}`, { headers: { "x-api-key": key } })).json()) as { data: { folio: number; monto_total: number; forma_pago: number; receptor: Record<string, string>; items: Array<{ cantidad: number; precio: number; descripcion?: string }> } }).data;
    expect(factura.monto_total).toBe(50364);
    expect(factura.forma_pago).toBe(1);
    expect(factura.receptor).toMatchObject({ rut: "76192083-9", comuna: "Temuco" });
    expect(factura.items.map((i) => [i.cantidad, i.precio, i.descripcion])).toEqual([[3, 12990, "Tueste medio, grano entero"], [2.5, 1490.4, undefined]]);

    // A partial credit note: the factura's receptor and lines filled in; one line returned.
    await page.getByRole("link", { name: "Nota de crédito" }).click();
    await page.getByRole("heading", { name: "Emitir nota de crédito electrónica", level: 1 }).waitFor();
    expect(await input("receptor.comuna").inputValue()).toBe("Temuco");
    expect(await input("referencia.folio").inputValue()).toBe(String(factura.folio));
    expect(await input("items[1].cantidad").inputValue()).toBe("2,5");
    expect(await page.getByLabel("Forma de pago").isVisible()).toBe(false); // facturas only
    await input("referencia.razon").fill("Devolución");
    await input("items[0].cantidad").fill("30"); // more than was invoiced
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await page.locator(".alert-error").filter({ hasText: "no puede superar el total del documento" }).waitFor();
    await page.getByRole("button", { name: "Quitar" }).first().click();
    expect(await input("items[0].nombre").inputValue()).toBe("Filtros de papel"); // renumbered
    await input("referencia.razon").fill("Devolución de filtros");
    await page.getByLabel("Qué hace la nota").selectOption("3");
    await totals.getByText("$3.990").waitFor(); // 3 353 + IVA 637
    await expectNoPhoneOverflow("emitir-nota");
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Emitir" }).click();
    await page.getByText(/Nota de crédito electrónica N° \d+ emitida/).waitFor();
    await page.getByText(new RegExp(`^Factura electrónica N° ${factura.folio} del `)).waitFor();

    // The same invoice again (next month's): everything but the date and the folio filled in.
    await go(`/dashboard/documentos/${facturaId}`);
    await page.getByRole("link", { name: "Emitir uno igual" }).click();
    await page.getByRole("heading", { name: "Emitir documento", level: 1 }).waitFor();
    expect(await page.getByLabel("Tipo de documento").inputValue()).toBe("33");
    expect(await input("receptor.rut").inputValue()).toBe("76192083-9");
    expect(await input("items[1].precio").inputValue()).toBe("1490,4");
    await totals.getByText("$50.364").waitFor();

    // A receptor this business invoiced before: its RUT fills the rest, from the last document to it.
    await go("/dashboard/documentos/nuevo");
    await page.getByRole("heading", { name: "Emitir documento", level: 1 }).waitFor();
    await page.getByRole("textbox", { name: "RUT", exact: true }).fill("76192083-9");
    await page.getByRole("textbox", { name: "RUT", exact: true }).press("Tab");
    await page.getByText("Datos tomados del último documento emitido a este RUT").waitFor();
    expect(await input("receptor.razon_social").inputValue()).toBe("Tostaduría del Sur Ltda.");
    expect(await input("receptor.comuna").inputValue()).toBe("Temuco");
    // The sandbox's list of electronic issuers holds this business: its correo de intercambio beside the RUT, and
    // its razón social not offered over the one already there.
    const issuerNote = page.locator('[data-field="receptor.rut"] .receptor-issuer');
    await issuerNote.getByText(/^Correo de intercambio: [0-9a-f]+@/).waitFor();
    await issuerNote.getByText(/^Emisor electrónico autorizado/).waitFor();
    expect(await page.getByRole("button", { name: /^Usar razón social/ }).isVisible()).toBe(false);
    expect(await input("receptor.razon_social").inputValue()).toBe("Tostaduría del Sur Ltda.");

    // A boleta: the receptor may stay empty (the anonymous consumer), and its prices include IVA.
    await go("/dashboard/documentos/nuevo?tipo=39");
    await page.getByRole("heading", { name: "Emitir documento", level: 1 }).waitFor();
    await page.getByText("déjalo vacío para un consumidor final").waitFor();
    // the price rule, said as the API says it: checked sends precios_brutos: true, unchecked prices are net
    expect(await page.getByLabel("Los precios incluyen IVA (precios brutos)").isChecked()).toBe(true);
    await page.getByText("Sin marcar, los precios son netos y se les suma el IVA.").waitFor();
    await input("items[0].nombre").fill("Café cortado");
    await input("items[0].cantidad").fill("2");
    await input("items[0].precio").fill("2.500");
    await totals.getByText("$5.000").waitFor();
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await page.getByRole("dialog").getByText("Para un consumidor final").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Emitir" }).click();
    await page.getByText(/Boleta electrónica N° \d+ emitida/).waitFor();
    const boleta = ((await (await fetch(`${server.api}/v1/dte/${page.url().split("/").pop()}`, { headers: { "x-api-key": key } })).json()) as { data: Record<string, unknown> }).data;
    expect(boleta).toMatchObject({ tipo: 39, monto_total: 5000, monto_neto: 4202, monto_iva: 798, precios_brutos: true, receptor: { rut: "66666666-6" } });
    expect(await listed()).toBe(before + 3);

    // The month's sales for the F29: the facturas' and the boleta's IVA less the credit notes' — the one annulling
    // the first factura (2 844) and the partial one (637): 2 844 + 8 041 + 798 − 2 844 − 637.
    await go("/dashboard/documentos");
    await page.getByRole("button", { name: "Este mes" }).click();
    await page.waitForURL(/desde=\d{4}-\d{2}-01&hasta=/);
    await page.getByRole("heading", { name: /^Resumen del / }).waitFor();
    expect(await page.getByTestId("debito-fiscal").textContent()).toBe("$8.202");
    await page.getByRole("cell", { name: "Nota de crédito electrónica (resta)" }).waitFor();
    await expectNoPhoneOverflow("documentos-resumen");
  }, 120_000);

  test.skipIf(Boolean(sandboxMissing || emissionMissing || batchMissing))("import a CSV saved by Excel: problems in Spanish and nothing sent; the documents and total; 2 emitted, 1 failed at its row with a file of it; the same file again takes no folio", async () => {
    const key = journey.key ?? "";
    const listed = async () => ((await (await fetch(`${server.api}/v1/dte?limit=100`, { headers: { "x-api-key": key } })).json()) as { data: Array<{ id: string }> }).data.length;
    const before = await listed();
    const batches: Array<{ documents: Array<{ idempotency_key?: string }> }> = [];
    const onRequest = (r: Request) => {
      if (r.url().endsWith("/v1/dte/batch")) batches.push(r.postDataJSON() as (typeof batches)[number]);
    };
    page.on("request", onRequest);
    await go("/dashboard/documentos");
    await page.getByRole("link", { name: "Importar Excel o CSV" }).first().click();
    await page.waitForURL("**/dashboard/documentos/importar");
    await page.getByRole("heading", { name: "Importar ventas (Excel o CSV)", level: 1 }).waitFor();
    const template = page.getByRole("link", { name: "Descargar plantilla" });
    expect(await template.getAttribute("download")).toBe("plantilla-ventas.csv");
    const templateText = await downloaded(template);
    expect(readEmissionSheet(templateText).problems).toEqual([]); // what the page offers reads back as documents
    const file = page.getByLabel("Archivo de ventas (.xlsx o .csv)");

    // A header the reader does not know: every problem in Spanish, nothing to emit.
    await file.setInputFiles({ name: "ventas.csv", mimeType: "text/csv", buffer: Buffer.from("tipo;rut;razon_social;nombre;cantidad;precio_unitario\n39;66666666-6;Consumidor final;Pan;1;1000\n") });
    const problems = page.getByRole("table", { name: "Problemas del archivo" });
    await problems.getByRole("cell", { name: /^No existe la columna «precio_unitario»/ }).waitFor();
    expect(await problems.getByRole("cell", { name: "1", exact: true }).count()).toBe(1);
    await page.getByRole("alert").filter({ hasText: "no se emitió nada" }).waitFor();
    expect(await page.getByRole("button", { name: /^Emitir/ }).count()).toBe(0);
    expect(await phoneOverflow()).toBeLessThanOrEqual(0);

    // An Excel workbook as it is (SheetJS writes it): its first sheet, read in the browser and checked by the API.
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["tipo", "nombre", "cantidad", "precio"], [39, "Queso por kilo", 0.735, 11990]]), "Boletas");
    await file.setInputFiles({ name: "boletas.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: Buffer.from(XLSX.write(book, { type: "array", bookType: "xlsx", compression: true }) as ArrayBuffer) });
    await page.getByRole("heading", { name: "Documentos de boletas.xlsx" }).waitFor();
    expect(await page.getByTestId("import-summary").textContent()).toBe("1 documento por $8.813");
    // LibreOffice's own format is refused in words, not read as garbage.
    await file.setInputFiles({ name: "ventas.ods", mimeType: "application/vnd.oasis.opendocument.spreadsheet", buffer: Buffer.from(XLSX.write(book, { type: "array", bookType: "ods" }) as ArrayBuffer) });
    await page.getByRole("cell", { name: /^No se puede leer este archivo como planilla/ }).waitFor();

    // Excel in Chile: `;` and Windows-1252 (Ñuñoa). A factura of two lines, one with a wrong check digit, a boleta.
    const csv = [
      "documento;tipo;rut;razon_social;giro;direccion;comuna;nombre;cantidad;precio;exento;precios_brutos",
      "F-1;33;77777777-7;Café Ñuñoa Ltda.;Cafetería;Irarrázaval 3000;Ñuñoa;Café en grano 1 kg;2;12.990;no;no",
      "F-1;;;;;;;Despacho;1;3.000;sí;",
      "F-2;33;76192083-8;Cliente Equivocado SpA;Comercio;Calle Uno 1;Santiago;Servicio;1;10.000;no;no",
      "B-1;39;66666666-6;Consumidor final;;;;Pan amasado;3;1.500;no;sí",
    ].join("\r\n");
    const cp1252 = Buffer.from(csv, "latin1");
    expect(cp1252.includes(Buffer.from("Ñuñoa"))).toBe(false); // not UTF-8
    await file.setInputFiles({ name: "ventas-noviembre.csv", mimeType: "text/csv", buffer: cp1252 });
    const preview = page.getByRole("table", { name: "Documentos que se emitirán" });
    await preview.waitFor();
    // Checked by the API before anything is emitted: F-2's wrong check digit at its row, with a file of that row.
    // F-1: 25 980 + IVA 4 936 + 3 000 exento; B-1: 4 500 with IVA.
    expect(await page.getByTestId("import-summary").textContent()).toBe("3 documentos, 2 sin errores por $38.416");
    await preview.getByRole("row", { name: /^4 .*Cliente Equivocado SpA.*Fila 4: receptor\.rut: RUT no válido/ }).waitFor();
    expect(await preview.getByText("Lista", { exact: true }).count()).toBe(2);
    const checkedRows = readEmissionSheet(await downloaded(page.getByRole("link", { name: "Descargar filas con error" })));
    expect(checkedRows.documents.map((d) => d.params.receptor.rut)).toEqual(["76192083-8"]);
    await expectNoPhoneOverflow("importar-csv-revision");
    expect(await preview.locator("tbody tr").allInnerTexts()).toHaveLength(3);
    await preview.getByRole("cell", { name: "2–3" }).waitFor();
    await preview.getByRole("cell", { name: /Café Ñuñoa Ltda\./ }).waitFor();
    await preview.getByRole("cell", { name: "$33.916" }).waitFor();
    expect(await listed()).toBe(before); // nothing sent yet
    expect(await phoneOverflow()).toBeLessThanOrEqual(0);

    const emit = async (button = "Emitir 2 documentos sin errores", question = "¿Emitir 2 documentos por $38.416?") => {
      await page.getByRole("button", { name: button }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(question).waitFor();
      await dialog.getByText(/\(Pruebas\)/).waitFor();
      await dialog.getByRole("button", { name: "Emitir" }).click();
      await page.getByRole("heading", { name: "Resultado de ventas-noviembre.csv" }).waitFor();
    };
    await emit();
    await page.getByText("Se emitieron 2 de 3 documentos, por $38.416 en total.").waitFor();
    const emitted = page.getByRole("table", { name: "Documentos emitidos" }).getByRole("link");
    expect(await emitted.count()).toBe(2);
    const folios = await emitted.allTextContents();
    expect(folios[0]).toMatch(/^Factura electrónica N° \d+$/);
    expect(folios[1]).toMatch(/^Boleta electrónica N° \d+$/);
    expect(await emitted.first().getAttribute("href")).toMatch(/^\/dashboard\/documentos\/dte_/);
    const failed = page.getByRole("table", { name: "Documentos con error" });
    await failed.getByRole("row", { name: /^4 .*Factura electrónica.*receptor\.rut: RUT no válido \(revisa el dígito verificador\)\./ }).waitFor();
    await page.getByRole("alert").filter({ hasText: "1 documento no se emitió." }).waitFor();
    const failedLink = page.getByRole("link", { name: "Descargar filas con error" });
    expect(await failedLink.getAttribute("download")).toBe("ventas-noviembre.fallidos.csv");
    const failedText = await downloaded(failedLink);
    const again = readEmissionSheet(failedText); // only F-2's row, with the reason; it reads back as that document
    expect(again.problems).toEqual([]);
    expect(again.documents.map((d) => d.params.receptor.rut)).toEqual(["76192083-8"]);
    expect(failedText).toContain("RUT no válido (revisa el dígito verificador)");
    await page.getByText("o corrige tu planilla y súbela completa: lo ya emitido no se emite de nuevo").waitFor();
    expect(await listed()).toBe(before + 2);
    const facturaId = (await emitted.first().getAttribute("href"))?.split("/").pop() ?? "";
    const factura = ((await (await fetch(`${server.api}/v1/dte/${facturaId}`, { headers: { "x-api-key": key } })).json()) as { data: { monto_total: number; receptor: Record<string, string> } }).data;
    expect(factura.monto_total).toBe(33916);
    expect(factura.receptor).toMatchObject({ razon_social: "Café Ñuñoa Ltda.", comuna: "Ñuñoa" });
    await expectNoPhoneOverflow("importar-csv");

    // The sheet fixed where the check pointed (F-2's check digit) and uploaded whole: the two documents emitted before
    // are shown with their folios and not emitted again; only F-2 is.
    await file.setInputFiles({ name: "ventas-noviembre.csv", mimeType: "text/csv", buffer: Buffer.from(csv.replace("76192083-8", "76192083-9"), "latin1") });
    await preview.waitFor();
    expect(await page.getByTestId("import-summary").textContent()).toBe("3 documentos: 1 por emitir por $11.900, 2 ya emitidos");
    expect(await preview.getByRole("link", { name: /^Ya emitido · N° \d+$/ }).count()).toBe(2);
    expect(await preview.getByText("Lista", { exact: true }).count()).toBe(1);
    // Other, equal sales can still be emitted as new documents, on purpose.
    const anew = page.getByLabel(/^Emitir también los 2 ya emitidos como documentos nuevos/);
    await anew.check();
    await page.getByRole("button", { name: "Emitir 3 documentos" }).waitFor();
    await anew.uncheck();
    await expectNoPhoneOverflow("importar-csv-reenvio");
    await emit("Emitir 1 documento", "¿Emitir 1 documento por $11.900?");
    await page.getByText("Se emitió 1 de 3 documentos, por $11.900 en total.").waitFor();
    await page.getByText("2 documentos ya se habían emitido en las últimas 24 horas").waitFor();
    const after = await emitted.allTextContents();
    expect([after[0], after[2]]).toEqual(folios);
    expect(after[1]).toMatch(/^Factura electrónica N° \d+$/);
    expect(after[1]).not.toBe(folios[0]);
    expect(await listed()).toBe(before + 3);
    // Each document under its content's key: F-1 and B-1 the same both times, F-2 changed, so another key.
    const keys = batches.map((body) => body.documents.map((d) => d.idempotency_key));
    expect(keys).toHaveLength(2);
    expect(keys[0]?.every((k) => /^doc-[0-9a-f]{40}-1$/.test(k ?? ""))).toBe(true);
    expect([keys[1]?.[0], keys[1]?.[2]]).toEqual([keys[0]?.[0], keys[0]?.[2]]);
    expect(keys[1]?.[1]).not.toBe(keys[0]?.[1]);
    page.off("request", onRequest);

    // And back out for the accountant: every document of the environment as the ledger CSV, accents intact.
    await go("/dashboard/documentos");
    const ledger = await downloaded(page.getByRole("button", { name: /^Descargar CSV \(\d+ documentos\)$/ }));
    const lines = ledger.split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(1 + (await listed()));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${facturaId};33;\\d+;\\d{4}-\\d\\d-\\d\\d;77777777-7;Café Ñuñoa Ltda\\.;25980;3000;4936;33916;`)));
  }, 90_000);

  test.skipIf(Boolean(sandboxMissing || emissionMissing))("a factura with additional taxes: its detail and the month's summary show each tax with its rate", async () => {
    const dte = await emitWithKey({
      tipo: 33,
      receptor: { rut: "77777777-7", razon_social: "Minimarket Los Aromos", giro: "Comercio", direccion: "Los Aromos 45", comuna: "Temuco" },
      items: [{ nombre: "Bebida cola 3 L", cantidad: 24, precio: 1890, impuesto_adicional: 271 }, { nombre: "Vino tinto", cantidad: 6, precio: 4990, impuesto_adicional: 25 }],
    });
    // 271: 45 360 × 18 % = 8 164.8; 25: 29 940 × 20.5 % = 6 137.7
    await go(`/dashboard/documentos/${dte.id}`);
    const fact = (label: string) => page.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
    expect(await fact("Impuesto adicional 271 (18 %)").textContent()).toBe("$8.165");
    expect(await fact("Impuesto adicional 25 (20,5 %)").textContent()).toBe("$6.138");
    await go("/dashboard/documentos");
    await page.getByRole("button", { name: "Este mes" }).click();
    await page.getByRole("heading", { name: /^Resumen del / }).waitFor();
    expect(await fact("Impuesto adicional 271 (18 %)").textContent()).toBe("$8.165 sobre $45.360");

    // A credit note started from it keeps each line's tax, and its totals show them as typed.
    const input = (name: string) => page.locator(`[name="${name}"]`);
    await go(`/dashboard/documentos/nuevo?tipo=61&referencia=${dte.id}`);
    await page.getByRole("heading", { name: /^Emitir nota de crédito/, level: 1 }).waitFor();
    expect(await input("items[0].impuesto_adicional").inputValue()).toBe("271");
    expect(await input("items[1].impuesto_adicional").inputValue()).toBe("25");
    const totals = page.locator(".totals");
    expect(await fact("ILA azucaradas 18 %").textContent()).toBe("$8.165");
    // a line's tax chosen in the form counts at once; boletas have no such field
    await input("items[1].impuesto_adicional").selectOption("27");
    await totals.locator("dt", { hasText: "ILA analcohólicas 10 %" }).waitFor();
    expect(await fact("ILA analcohólicas 10 %").textContent()).toBe("$2.994");
    await go("/dashboard/documentos/nuevo?tipo=39");
    await page.getByRole("heading", { name: "Emitir documento", level: 1 }).waitFor();
    expect(await input("items[0].impuesto_adicional").isVisible()).toBe(false);
  }, 60_000);

  test.skipIf(Boolean(sandboxMissing || emissionMissing))("guías de despacho (52) from the form: no traslado on a factura; the motivo's error from the API at its field; a sale with its driver (detail, cedible copy); an internal transfer at $0", async () => {
    const key = journey.key ?? "";
    const input = (name: string) => page.locator(`[name="${name}"]`);
    const fieldError = (name: string) => page.locator(`[data-field="${name}"] .field-error`);
    const traslado = page.getByRole("group", { name: "Traslado" });
    const totals = page.getByRole("region", { name: "Totales" });
    await go("/dashboard/folios");
    await page.getByLabel("Tipo de documento").selectOption("52");
    await page.getByLabel("Cantidad de folios").fill("10");
    await page.getByRole("button", { name: "Emitir CAF de prueba" }).click();
    await page.getByText(/CAF de prueba emitido: Guía de despacho electrónica, folios 1 a 10/).waitFor();

    // A factura's form has no traslado; choosing 52 shows it, with the nine motivos in words.
    await go("/dashboard/documentos/nuevo");
    await page.getByRole("heading", { name: "Emitir documento", level: 1 }).waitFor();
    expect(await traslado.isVisible()).toBe(false);
    expect(await input("traslado.tipo").isVisible()).toBe(false);
    await page.getByLabel("Tipo de documento").selectOption("52");
    await traslado.waitFor();
    expect(await page.getByLabel("Forma de pago").isVisible()).toBe(false);
    expect(await input("traslado.tipo").locator("option").allTextContents()).toEqual([
      "Elige el motivo…", "1 · Operación constituye venta", "2 · Ventas por efectuar", "3 · Consignaciones", "4 · Entrega gratuita", "5 · Traslados internos",
      "6 · Otros traslados no venta", "7 · Guía de devolución", // exports (8, 9) need customs data not taken yet
    ]);
    expect(await input("traslado.despacho").locator("option").count()).toBe(4); // — and the three
    expect(await input("transporte.chofer.rut").isVisible()).toBe(false); // folded
    await input("receptor.rut").fill("76.192.083-9");
    await input("receptor.razon_social").fill("Constructora Norte S.A.");
    await input("receptor.giro").fill("Construcción");
    await input("receptor.direccion").fill("Av. Pajaritos 3200");
    await input("receptor.comuna").fill("Maipú");
    await input("items[0].nombre").fill("Cemento 25 kg");
    await input("items[0].cantidad").fill("40");
    await input("items[0].precio").fill("3.990");
    await totals.getByText("$189.924").waitFor(); // 159 600 + IVA 30 324, like a factura
    // Without a motivo: the API's 422 at the field, nothing emitted.
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await fieldError("traslado.tipo").filter({ hasText: "obligatorio" }).waitFor();
    expect(await input("traslado.tipo").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("dialog").count()).toBe(0);
    await input("traslado.tipo").selectOption("1");
    await input("traslado.despacho").selectOption("2");
    // A driver's wrong check digit: the transport unfolds on its error.
    await page.getByText("Transporte (opcional)").click();
    await input("transporte.patente").fill("KXTR21");
    await input("transporte.chofer.rut").fill("11111111-2");
    await input("transporte.chofer.nombre").fill("Juan Soto");
    await input("transporte.comuna_destino").fill("Maipú");
    await page.getByText("Transporte (opcional)").click(); // folded again
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await fieldError("transporte.chofer.rut").filter({ hasText: "dígito verificador" }).waitFor();
    expect(await input("transporte.chofer.rut").isVisible()).toBe(true);
    await expectNoPhoneOverflow("emitir-guia");
    await input("transporte.chofer.rut").fill("11111111-1");
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("¿Emitir Guía de despacho electrónica por $189.924?").waitFor();
    await dialog.getByRole("button", { name: "Emitir" }).click();
    await page.getByText(/Guía de despacho electrónica N° \d+ emitida/).waitFor();
    await page.getByRole("heading", { name: /^Guía de despacho electrónica N° \d+$/, level: 1 }).waitFor();
    const card = page.getByTestId("traslado");
    const fact = (label: string) => card.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
    expect(await fact("Motivo").textContent()).toBe("Operación constituye venta");
    expect(await fact("Despacho").textContent()).toBe("Por cuenta del emisor a instalaciones del cliente");
    expect(await fact("Chofer").textContent()).toBe("Juan Soto 11111111-1");
    expect(await fact("Destino").textContent()).toBe("Maipú");
    expect(await card.locator("dt", { hasText: "RUT transportista" }).count()).toBe(0); // only what the guía says
    await page.getByRole("button", { name: "Copia cedible" }).waitFor();
    const guiaId = page.url().split("/").pop() ?? "";
    const guia = ((await (await fetch(`${server.api}/v1/dte/${guiaId}`, { headers: { "x-api-key": key } })).json()) as { data: Record<string, unknown> }).data;
    expect(guia).toMatchObject({ tipo: 52, monto_total: 189924, traslado: { tipo: 1, despacho: 2 }, transporte: { patente: "KXTR21", chofer: { rut: "11111111-1", nombre: "Juan Soto" }, comuna_destino: "Maipú" } });
    await expectNoPhoneOverflow("documento-guia");

    // Billing the guía: a factura with its receptor and lines, referencing it (TpoDocRef 52); no traslado
    await page.getByRole("link", { name: "Facturar esta guía" }).click();
    await page.getByRole("heading", { name: "Emitir factura electrónica", level: 1 }).waitFor();
    expect(await page.getByLabel("Tipo de documento").inputValue()).toBe("33");
    expect([await input("referencia.tipo_doc").inputValue(), await input("referencia.folio").inputValue()]).toEqual(["52", String(guia.folio)]);
    expect(await traslado.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await page.getByRole("dialog").getByText("¿Emitir Factura electrónica por $189.924?").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Emitir" }).click();
    await page.getByText(/Factura electrónica N° \d+ emitida/).waitFor();
    await page.getByText(`Guía de despacho electrónica N° ${guia.folio} del ${String(guia.fecha).split("-").reverse().join("-")}: Factura de guía de despacho N° ${guia.folio}`).waitFor();
    const billed = ((await (await fetch(`${server.api}/v1/dte/${page.url().split("/").pop()}`, { headers: { "x-api-key": key } })).json()) as { data: Record<string, unknown> }).data;
    expect(billed).toMatchObject({ tipo: 33, monto_total: 189924, referencias: [{ tipo_doc: 52, folio: guia.folio }] });
    expect(billed.traslado).toBeUndefined();
    // an empty reference on a factura is not sent
    await go("/dashboard/documentos/nuevo?tipo=33");
    await page.getByText("Referencia (opcional)").waitFor();
    expect(await page.getByLabel("Qué hace la nota").isVisible()).toBe(false);

    // An internal transfer: motivo 5, no amounts.
    await go("/dashboard/documentos/nuevo?tipo=52");
    await traslado.waitFor();
    await input("receptor.rut").fill("76.192.083-9");
    await input("receptor.razon_social").fill("Constructora Norte S.A.");
    await input("receptor.giro").fill("Construcción");
    await input("receptor.direccion").fill("Av. Pajaritos 3200");
    await input("receptor.comuna").fill("Maipú");
    await input("traslado.tipo").selectOption("5");
    await input("items[0].nombre").fill("Andamios a obra Los Dominicos");
    await input("items[0].cantidad").fill("12");
    await input("items[0].precio").fill("0");
    await totals.getByText("$0").last().waitFor();
    await page.getByRole("button", { name: "Emitir", exact: true }).click();
    await page.getByRole("dialog").getByText("¿Emitir Guía de despacho electrónica por $0?").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Emitir" }).click();
    await page.getByText(/Guía de despacho electrónica N° \d+ emitida/).waitFor();
    expect(await fact("Motivo").textContent()).toBe("Traslados internos");
    expect(await card.locator("dt").count()).toBe(1);
    const interno = ((await (await fetch(`${server.api}/v1/dte/${page.url().split("/").pop()}`, { headers: { "x-api-key": key } })).json()) as { data: Record<string, unknown> }).data;
    expect(interno).toMatchObject({ tipo: 52, monto_total: 0, traslado: { tipo: 5 } });
    expect(interno.transporte).toBeUndefined();
  }, 90_000);

  test.skipIf(Boolean(sandboxMissing || emissionMissing || acceptanceMissing))("a factura its receiver claims: «Aceptación del receptor» from Sin consultar to Reclamada (RCD, the receiver's RUT) on «Consultar al SII», annulled from there; no such panel on a boleta", async () => {
    // `[sandbox:reclamo]` in the receptor's name: the sandbox SII records its RCD as soon as it accepts the factura
    const dte = await emitWithKey({
      tipo: 33,
      receptor: { rut: "77777777-7", razon_social: "Cliente [sandbox:reclamo]", giro: "Servicios", direccion: "Huérfanos 1000", comuna: "Santiago" },
      items: [{ nombre: "Asesoría contable noviembre", cantidad: 1, precio: 250_000 }],
    });
    const asked: string[] = [];
    const onRequest = (r: Request) => {
      if (r.url().includes("/aceptacion")) asked.push(r.url());
    };
    page.on("request", onRequest);
    const panel = page.getByTestId("acceptance");
    const deadline = Date.now() + 60_000;
    for (;;) {
      await go(`/dashboard/documentos/${dte.id}`);
      await page.getByRole("heading", { name: `Factura electrónica N° ${dte.folio}`, level: 1 }).waitFor();
      if ((await page.locator(".page-header").getByText("Aceptado", { exact: true }).count()) > 0) break;
      if (Date.now() > deadline) throw new Error("the factura did not reach ACEPTADO in 60 s");
      await page.waitForTimeout(1000);
    }
    // Timbre first asks the registry 30 s after the sandbox SII accepts: normally not asked yet
    await panel.getByText(/^(Sin consultar|Reclamada)$/).waitFor();
    if ((await panel.getByText("Sin consultar", { exact: true }).count()) > 0) {
      await panel.getByText(/^Aún no se ha consultado al SII si el receptor la aceptó o reclamó/).waitFor();
      expect(await panel.getByRole("cell").count()).toBe(0);
    }
    await panel.getByRole("button", { name: "Consultar al SII" }).click();
    await panel.getByRole("button", { name: "Consultar al SII", exact: true }).waitFor(); // "Consultando al SII…" while asking
    await panel.getByText("Reclamada", { exact: true }).waitFor();
    const rcd = panel.getByRole("row").filter({ has: page.getByRole("cell", { name: "RCD", exact: true }) });
    await rcd.getByRole("cell", { name: "77777777-7", exact: true }).waitFor();
    expect(await rcd.count()).toBe(1);
    await panel.getByText(/^El receptor reclamó esta factura en el SII/).waitFor();
    expect(await panel.locator("dt", { hasText: "Consultado" }).locator("xpath=following-sibling::dd[1]").textContent()).not.toBe("Aún no");
    expect(asked.filter((u) => u.includes("refresh=true"))).toHaveLength(1);
    await expectNoPhoneOverflow("documento-reclamado");

    // the claim is recorded as an event for the webhook
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByText(new RegExp(`^Tipo 33 folio ${dte.folio}: .+ → Reclamada \\(RCD\\)$`)).waitFor();
    await page.getByText("Aceptación del receptor").first().waitFor();

    // the documents list filters by the receiver's answer
    await go("/dashboard/documentos");
    await page.getByLabel("Respuesta del receptor").selectOption("RECLAMADO");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.waitForURL("**/dashboard/documentos?aceptacion=RECLAMADO");
    const rows = page.getByRole("table", { name: "Documentos emitidos" }).getByRole("row");
    await rows.nth(2).waitFor({ state: "detached" }); // the URL changes before the filtered list replaces the whole one
    await page.getByRole("link", { name: `Factura electrónica N° ${dte.folio}` }).waitFor();
    expect(await rows.count()).toBe(2); // header + the claimed factura

    // annulled from the panel: the page's own annulment, with its confirmation
    await go(`/dashboard/documentos/${dte.id}`);
    await panel.getByRole("button", { name: "Emitir la nota de crédito que la anula" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Emitir nota de crédito" }).click();
    await page.getByText(/Se emitió la nota de crédito N° \d+/).waitFor();
    await expect(heading().textContent()).resolves.toContain("Nota de crédito electrónica");
    expect(await panel.count()).toBe(0); // notes are not accepted or claimed

    // a boleta has no receiver to accept it: no panel, nothing asked
    const boleta = await emitWithKey({ tipo: 39, receptor: { rut: "66666666-6", razon_social: "Consumidor final" }, items: [{ nombre: "Café cortado", cantidad: 1, precio: 2500 }] });
    const before = asked.length;
    await go(`/dashboard/documentos/${boleta.id}`);
    await page.getByRole("heading", { name: `Boleta electrónica N° ${boleta.folio}`, level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Respuesta del SII" }).waitFor();
    expect(await page.getByRole("heading", { name: "Aceptación del receptor" }).count()).toBe(0);
    expect(asked.length).toBe(before);
    page.off("request", onRequest);
  }, 120_000);

  test("a second business: selector switches the scope; delete with confirmation", async () => {
    await go("/dashboard/empresas/nueva");
    await page.getByLabel("RUT").fill("96.790.240-3");
    await page.getByLabel("Razón social").fill("Sucursal Temporal S.A.");
    await page.getByLabel("Giro").fill("Pruebas");
    await page.getByLabel("Códigos de actividad económica").fill("620200, 631100");
    await page.getByLabel("Dirección").fill("Calle Uno 1");
    await page.getByLabel("Comuna").fill("Ñuñoa");
    await page.getByRole("button", { name: "Registrar empresa" }).click();
    await page.waitForURL(/\/dashboard\/empresas\/biz_/);
    const second = page.url().split("/").pop() ?? "";
    expect(await page.locator("#business-select").inputValue()).toBe(second);
    await page.getByRole("link", { name: "Claves API" }).click();
    await page.getByText("Esta empresa no tiene claves.").waitFor();
    await page.locator("#business-select").selectOption(journey.businessId ?? "");
    await page.getByRole("cell", { name: "ERP pruebas", exact: true }).waitFor();
    await page.getByRole("link", { name: "Empresas", exact: true }).click();
    await page.getByRole("row", { name: /Sucursal Temporal/ }).getByRole("button", { name: "Eliminar" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Eliminar empresa" }).click();
    await page.getByRole("row", { name: /Sucursal Temporal/ }).waitFor({ state: "detached" });
    expect(await page.locator("#business-select option").count()).toBe(1);
  }, 60_000);

  test("environment switch and business selector send their headers; sign out and back in", async () => {
    const seen: Array<Record<string, string>> = [];
    page.on("request", (r) => {
      if (r.url().includes("/v1/")) seen.push(r.headers());
    });
    await go("/dashboard/folios");
    await page.getByRole("heading", { name: "Folios (CAF)", level: 1 }).waitFor();
    await page.getByRole("radio", { name: "Producción" }).check();
    await page.getByRole("heading", { name: "Folios (CAF)", level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    const last = seen.at(-1) ?? {};
    expect(last["x-environment"]).toBe("live");
    expect(last["x-business-id"]).toBe(journey.businessId ?? "");
    expect(await page.getByRole("button", { name: "Emitir CAF de prueba" }).count()).toBe(0);
    await page.getByRole("radio", { name: "Pruebas" }).check();
    await page.getByRole("button", { name: "Salir" }).click();
    await page.waitForURL("**/dashboard/ingresar");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.getByLabel("Correo electrónico").fill(EMAIL);
    await page.getByLabel("Contraseña").fill("equivocada-123");
    await page.getByRole("button", { name: "Ingresar" }).click();
    await page.getByText("Correo o contraseña incorrectos.").waitFor();
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Ingresar" }).click();
    await page.waitForURL("**/dashboard/documentos");
    await expectNoPhoneOverflow("documentos-vacio");
  }, 60_000);
});
