/**
 * Documents, detail and events pages against a scripted `/v1` (see support/fake-api.ts): filters and pagination
 * in the URL, status badges, SII rejection hints, PDF preview from a blob, XML download, the receiver's deadline
 * to accept or claim a factura (and a refused «Consultar al SII»), annulment with confirmation, webhook deliveries, and the silent session refresh after a 401. The live-server journey covers
 * the same pages end to end once emission exists; this file pins the UI states that are hard to provoke there.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Elysia } from "elysia";
import type { Page } from "playwright-core";
import { dashboard } from "../../server/src/http/dashboard.js";
import { buildDashboard, dashboardDir } from "../index.js";
import { launch, shoot, unlabeledControls } from "./support/browser.js";
import { installFakeApi } from "./support/fake-api.js";

await buildDashboard(dashboardDir);
const assets = new Elysia().use(dashboard());
const front = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => assets.handle(request) });
const origin = `http://127.0.0.1:${front.port}`;
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "es-CL", timezoneId: "America/Santiago", acceptDownloads: true });
const page: Page = await context.newPage();
page.setDefaultTimeout(10_000);
const api = await installFakeApi(page);

afterAll(async () => {
  await browser.close();
  front.stop(true);
});

async function noPhoneOverflow(name: string) {
  expect(await shoot(page, name), `${name}: horizontal scroll at 375 px`).toBeLessThanOrEqual(0);
  expect(await unlabeledControls(page), `${name}: form controls without a label`).toEqual([]);
}

describe("documents UI (scripted API)", () => {
  test("deep link while signed out → sign in → back to the deep link", async () => {
    await page.goto(`${origin}/dashboard/documentos?estado=RECHAZADO`);
    await page.waitForURL(/\/dashboard\/ingresar\?next=/);
    await page.getByLabel("Correo electrónico").fill("ana@empresa.cl");
    await page.getByLabel("Contraseña").fill("una-clave-bastante-larga");
    await page.getByRole("button", { name: "Ingresar" }).click();
    await page.waitForURL("**/dashboard/documentos?estado=RECHAZADO");
    await page.getByRole("cell", { name: "Rechazado" }).waitFor();
    expect(await page.getByLabel("Estado").inputValue()).toBe("RECHAZADO");
  });

  test("list: badges, filters in the query, pagination, headers", async () => {
    await page.getByRole("button", { name: "Limpiar" }).click();
    await page.waitForURL(/\/dashboard\/documentos$/);
    await page.getByText("Página 1 de 3 · 45 en total").waitFor();
    for (const estado of ["Aceptado", "Rechazado", "Aceptado con reparos", "Enviado", "Pendiente"]) {
      expect(await page.getByRole("cell", { name: estado, exact: true }).count()).toBe(1);
    }
    await noPhoneOverflow("documentos");
    await page.getByLabel("Tipo").selectOption("33");
    await page.getByLabel("Folio").fill("119");
    await page.getByLabel("RUT receptor").fill("76543210-3");
    await page.getByLabel("Desde").fill("2026-11-01");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.waitForURL(/tipo=33/);
    const last = api.seen.filter((s) => s.path === "/dte").at(-1);
    expect(last?.query.get("tipo")).toBe("33");
    expect(last?.query.get("folio")).toBe("119");
    expect(last?.query.get("receptor_rut")).toBe("76543210-3");
    expect(last?.query.get("desde")).toBe("2026-11-01");
    expect(last?.headers["x-business-id"]).toBe("biz_01fake");
    expect(last?.headers["x-environment"]).toBe("test");
    await page.getByRole("button", { name: "Limpiar" }).click();
    await page.getByRole("button", { name: "Siguiente →" }).click();
    await page.waitForURL(/page=2/);
    await page.getByText("Página 2 de 3").waitFor();
    expect(api.seen.filter((s) => s.path === "/dte").at(-1)?.query.get("page")).toBe("2");
  });

  test("Descargar CSV: every page of the filter (not the page shown), in the CLI's ledger columns", async () => {
    await page.goto(`${origin}/dashboard/documentos?desde=2026-11-01&hasta=2026-11-30`);
    const button = page.getByRole("button", { name: "Descargar CSV (45 documentos)" });
    const before = api.seen.length;
    const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
    expect(download.suggestedFilename()).toBe("documentos-2026-11-01-a-2026-11-30.csv");
    const text = readFileSync(await download.path(), "utf8");
    const rows = text.split("\r\n").filter(Boolean);
    expect(rows[0]).toBe("\uFEFFid;tipo;folio;fecha;receptor_rut;receptor_razon_social;monto_neto;monto_exento;monto_iva;monto_total;estado;track_id");
    expect(rows).toHaveLength(1 + 15); // the scripted API answers its 5 documents on each of its 3 pages
    const pages = api.seen.slice(before).filter((s) => s.path === "/dte" && s.query.get("limit") === "100");
    expect(pages.map((s) => [s.query.get("page"), s.query.get("desde"), s.query.get("hasta")]).sort()).toEqual([
      ["1", "2026-11-01", "2026-11-30"], ["2", "2026-11-01", "2026-11-30"], ["3", "2026-11-01", "2026-11-30"],
    ]);
    await button.waitFor(); // ready again
  });

  test("detail of a rejected document: SII code with a hint, history, PDF preview, XML download", async () => {
    await page.goto(`${origin}/dashboard/documentos/dte_01fake`);
    await page.getByRole("heading", { name: "Factura electrónica N° 119", level: 1 }).waitFor();
    await page.getByText("El SII rechazó el documento").waitFor();
    await page.getByText("CRT-3").waitFor();
    await page.getByText("Cómo resolverlo: Revisa el número y la fecha de resolución").waitFor();
    expect(await page.getByRole("button", { name: "Anular" }).count()).toBe(0); // nothing to annul
    expect(await page.getByTestId("acceptance").count()).toBe(0); // nor anything for its receiver to accept
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Descargar XML" }).click();
    expect((await download).suggestedFilename()).toBe("DTE-33-119.xml");
    await page.getByRole("button", { name: "Ver PDF" }).click();
    const src = (await page.getByTestId("pdf-frame").getAttribute("src")) ?? "";
    expect(src).toStartWith("blob:");
    await page.waitForTimeout(1500);
    await noPhoneOverflow("documento");
  });

  test("PDF variants: 80 mm for any document, the cedible copy only for facturas", async () => {
    const lastPdf = () => api.seen.filter((s) => s.path.endsWith("/pdf")).at(-1);
    for (const [button, file, param, value] of [["PDF 80 mm", "DTE-33-119-termica.pdf", "formato", "termica"], ["Copia cedible", "DTE-33-119-cedible.pdf", "cedible", "true"]] as const) {
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: button }).click();
      expect((await download).suggestedFilename()).toBe(file);
      expect(lastPdf()?.path).toBe("/dte/dte_01fake/pdf");
      expect(lastPdf()?.query.get(param)).toBe(value);
    }
    await page.goto(`${origin}/dashboard/documentos/dte_03fake`);
    await page.getByRole("heading", { name: "Boleta electrónica N° 117", level: 1 }).waitFor();
    await page.getByRole("button", { name: "PDF 80 mm" }).waitFor();
    expect(await page.getByRole("button", { name: "Copia cedible" }).count()).toBe(0); // a boleta is not transferable
    expect(await page.getByTestId("acceptance").count()).toBe(0); // nor accepted or claimed by its receiver
    await noPhoneOverflow("documento-boleta");
  });

  test("a factura within its 8 days: the receiver's deadline in Chile's time; a refused «Consultar al SII» keeps the answer", async () => {
    await page.goto(`${origin}/dashboard/documentos/dte_00fake`);
    const panel = page.getByTestId("acceptance");
    await panel.getByText("Sin respuesta", { exact: true }).waitFor();
    // plazo_hasta 2026-11-30T10:05Z is 07:05 in Santiago (summer time)
    await panel.getByText(/^El receptor tiene hasta el 30-11-2026,\s7:05\sa\.\sm\. para aceptarla o reclamarla; si no la reclama, queda aceptada tácitamente\.$/).waitFor();
    await panel.getByText("El registro del SII no tiene eventos de esta factura.").waitFor();
    expect(await panel.locator("dt", { hasText: "Consultado" }).count()).toBe(1);
    await panel.getByRole("button", { name: "Consultar al SII" }).click();
    await panel.getByRole("alert").filter({ hasText: "Demasiadas solicitudes" }).waitFor();
    await panel.getByText("Sin respuesta", { exact: true }).waitFor(); // the last answer stays
    expect(await panel.getByRole("button", { name: "Consultar al SII" }).isEnabled()).toBe(true);
    const asked = api.seen.filter((s) => s.path === "/dte/dte_00fake/aceptacion").map((s) => s.query.get("refresh"));
    expect(asked.slice(-2)).toEqual([null, "true"]);
  });

  test("annul an accepted document after confirming; cancel keeps it", async () => {
    await page.goto(`${origin}/dashboard/documentos/dte_00fake`);
    await page.getByRole("button", { name: "Anular" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("nota de crédito electrónica (tipo 61)").waitFor();
    await noPhoneOverflow("documento-anular");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancelar"); // safe default focus
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Anular"); // focus returns
    await page.getByRole("button", { name: "Anular" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
    expect(api.seen.some((s) => s.path.endsWith("/anular"))).toBe(false);
    await page.getByRole("button", { name: "Anular" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Emitir nota de crédito" }).click();
    await page.getByText("Se emitió la nota de crédito N° 7").waitFor();
    expect(api.seen.filter((s) => s.path === "/dte/dte_00fake/anular" && s.method === "POST").length).toBe(1);
  });

  test("folios on a server without sandbox mode: the list error and the sandbox button explain themselves", async () => {
    await page.getByRole("link", { name: "Folios (CAF)" }).click();
    await page.getByText("No se pudieron cargar los folios. Esta función aún no está disponible en este servidor.").waitFor();
    await page.getByRole("button", { name: "Emitir CAF de prueba" }).click();
    await page.getByText("El servidor no está en modo sandbox (SII_MODE=sandbox)").waitFor();
    expect(api.seen.filter((s) => s.path === "/sandbox/numerations").at(-1)?.body).toBe('{"tipo":33,"cantidad":100}');
    await noPhoneOverflow("folios-sin-sandbox");
  });

  test("keyboard: the skip link is the first stop and moves focus to the content", async () => {
    await page.goto(`${origin}/dashboard/documentos`);
    await page.getByRole("heading", { name: "Documentos", level: 1 }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Saltar al contenido");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => location.hash)).toBe("#main");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
  });

  test("webhook events with delivery status codes", async () => {
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByText("Tipo 33 folio 119: ENVIADO → RECHAZADO").waitFor();
    expect(await page.getByText("500", { exact: true }).count()).toBe(1);
    expect(await page.getByText("Sin entregas aún").count()).toBe(1);
    await noPhoneOverflow("webhooks-eventos");
  });

  test("an expired access token is refreshed once (rotating the refresh token) and the call retried", async () => {
    api.expireAccessToken();
    const before = api.seen.length;
    await page.getByRole("link", { name: "Documentos" }).click();
    await page.getByRole("cell", { name: "Aceptado", exact: true }).waitFor();
    const calls = api.seen.slice(before).map((s) => `${s.method} ${s.path} ${s.headers.authorization ?? ""}`);
    const n = Number(/tok(\d+)/.exec(calls[0] ?? "")?.[1]);
    expect(calls).toEqual([`GET /dte Bearer tok${n}`, "POST /auth/refresh ", `GET /dte Bearer tok${n + 1}`]);
    expect(await page.evaluate(() => sessionStorage.getItem("timbre.refresh"))).toBe(`ref${n + 1}`);
  });

  test("a revoked login sends the user to sign in, saying the session ended", async () => {
    api.revokeLogin();
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.waitForURL("**/dashboard/ingresar?expirada=1");
    await page.getByText("Tu sesión terminó. Vuelve a ingresar.").waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.getByRole("link", { name: "Documentos" }).count()).toBe(0);
  });
});
