/**
 * The emission form asks the SII's list of authorised electronic issuers about the receptor's RUT once it is typed
 * (scripted `/v1`: support/fake-api.ts + fake-issuers.ts): a listed one shows its correo de intercambio and resolution
 * and offers its razón social, never over what was typed; one not listed says so without blocking; a failure shows
 * nothing; the boletas' anonymous consumer and an invalid RUT are not asked about.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import type { Page } from "playwright-core";
import { dashboard } from "../../server/src/http/dashboard.js";
import { buildDashboard, dashboardDir } from "../index.js";
import { launch, shoot, unlabeledControls } from "./support/browser.js";
import { installFakeApi } from "./support/fake-api.js";
import { FAILING_RUT, installFakeIssuers, LISTED } from "./support/fake-issuers.js";

await buildDashboard(dashboardDir);
const assets = new Elysia().use(dashboard());
const front = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => assets.handle(request) });
const origin = `http://127.0.0.1:${front.port}`;
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "es-CL", timezoneId: "America/Santiago" });
const page: Page = await context.newPage();
page.setDefaultTimeout(10_000);
const api = await installFakeApi(page);
const fake = await installFakeIssuers(page);

afterAll(async () => {
  await browser.close();
  front.stop(true);
});

const rut = () => page.getByRole("textbox", { name: "RUT", exact: true });
const razon = () => page.locator('[name="receptor.razon_social"]');
const issuerNote = () => page.locator('[data-field="receptor.rut"] .receptor-issuer');
/** Types a RUT and leaves the field (the change that asks), then waits until the answer is shown. */
async function typeRut(text: string, waitForAsk = true) {
  const before = fake.asked.length;
  await rut().fill(text);
  await rut().press("Tab");
  if (!waitForAsk) return;
  while (fake.asked.length === before) await page.waitForTimeout(20);
  await page.locator(".receptor-issuer:not([aria-busy])").waitFor({ state: "attached" });
}

describe("the receptor's RUT in the SII's list of electronic issuers (scripted API)", () => {
  test("a listed RUT: its correo de intercambio and resolution beside the RUT; «Usar razón social» fills the empty field", async () => {
    await page.goto(`${origin}/dashboard/ingresar?next=${encodeURIComponent("/dashboard/documentos/nuevo")}`);
    await page.getByLabel("Correo electrónico").fill("ana@empresa.cl");
    await page.getByLabel("Contraseña").fill("una-clave-bastante-larga");
    await page.getByRole("button", { name: "Ingresar" }).click();
    await page.getByRole("heading", { name: "Emitir documento", level: 1 }).waitFor();

    await typeRut("96.790.240-3");
    await issuerNote().getByText(`Correo de intercambio: ${LISTED.correo_intercambio}`).waitFor();
    expect(await issuerNote().getByText("Emisor electrónico autorizado (resolución N° 80, ").textContent()).toMatch(/^Emisor electrónico autorizado \(resolución N° 80, 22[-/]08[-/]2014\)$/);
    expect(fake.asked.at(-1)).toBe("96790240-3");
    expect(await razon().inputValue()).toBe(""); // offered, not filled on its own
    // a long address and razón social wrap on a phone
    expect(await shoot(page, "emitir-receptor-emisor"), "horizontal scroll at 375 px").toBeLessThanOrEqual(0);
    await page.getByRole("button", { name: `Usar razón social «${LISTED.razon_social}»` }).click();
    expect(await razon().inputValue()).toBe(LISTED.razon_social);
    expect(await page.getByRole("button", { name: /^Usar razón social/ }).count()).toBe(0);
    expect(await unlabeledControls(page)).toEqual([]);
  });

  test("what the user typed is never overwritten: no offer over a typed razón social, none once it is typed", async () => {
    await page.goto(`${origin}/dashboard/documentos/nuevo`);
    await razon().fill("Ñuñoa Comercial");
    await typeRut("96790240-3");
    await issuerNote().getByText(`Correo de intercambio: ${LISTED.correo_intercambio}`).waitFor();
    expect(await page.getByRole("button", { name: /^Usar razón social/ }).isVisible()).toBe(false);
    expect(await razon().inputValue()).toBe("Ñuñoa Comercial");

    await razon().fill("");
    await typeRut("96790240-3 "); // a change again: asked again, offered on an empty field
    await page.getByRole("button", { name: /^Usar razón social/ }).waitFor();
    await razon().fill("Otra razón");
    expect(await page.getByRole("button", { name: /^Usar razón social/ }).isVisible()).toBe(false);
    expect(await razon().inputValue()).toBe("Otra razón");
  });

  test("a RUT not listed says so and blocks nothing; a failure shows nothing; a new RUT clears the last answer", async () => {
    await page.goto(`${origin}/dashboard/documentos/nuevo`);
    await typeRut("77.777.777-7");
    await issuerNote().getByText("No figura como emisor electrónico autorizado").waitFor();
    expect(fake.asked.at(-1)).toBe("77777777-7");
    expect(await rut().getAttribute("aria-invalid")).toBeNull();
    await razon().fill("Cliente de Prueba Ltda");
    await page.getByRole("button", { name: "Emitir" }).click(); // not blocked: the body goes to the preview
    while (!api.seen.some((s) => s.method === "POST" && s.path === "/dte/preview")) await page.waitForTimeout(20);
    expect(JSON.parse(api.seen.find((s) => s.path === "/dte/preview")?.body ?? "{}").receptor.rut).toBe("77.777.777-7");

    await typeRut(FAILING_RUT);
    expect(fake.asked.at(-1)).toBe(FAILING_RUT);
    expect(await issuerNote().textContent()).toBe("");
  });

  test("the boletas' anonymous consumer, the exports' foreign receiver and an invalid RUT are not asked about", async () => {
    await page.goto(`${origin}/dashboard/documentos/nuevo?tipo=39`);
    await page.getByRole("heading", { name: "Emitir documento", level: 1 }).waitFor();
    const before = fake.asked.length;
    for (const text of ["66.666.666-6", "55555555-5", "96790240-4"]) await typeRut(text, false);
    // a listed RUT afterwards is asked: the ones before were not merely slow
    await typeRut("96790240-3");
    await issuerNote().getByText(`Correo de intercambio: ${LISTED.correo_intercambio}`).waitFor();
    expect(fake.asked.slice(before)).toEqual(["96790240-3"]);
  });
});
