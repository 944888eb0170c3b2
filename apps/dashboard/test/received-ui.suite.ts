/**
 * «Recibidos», the business's intercambio block and a document's delivery, against a scripted `/v1`
 * (support/fake-api.ts + fake-received.ts): the list with its deadline badges, filters and pagination; a detail with
 * its verification, PDF and XML; accepting with the receipt of goods; claiming; the forbidden actions disabled with
 * their reason; the registry's refusals in Spanish; the XML import and the inbox; the intercambio address and the
 * write-only mailbox; «Reenviar». The real server's journey (received-journey) covers the same pages end to end.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import type { Page } from "playwright-core";
import { dashboard } from "../../server/src/http/dashboard.js";
import { buildDashboard, dashboardDir } from "../index.js";
import { launch, shoot, unlabeledControls } from "./support/browser.js";
import { installFakeApi } from "./support/fake-api.js";
import { installFakeReceived } from "./support/fake-received.js";

await buildDashboard(dashboardDir);
const assets = new Elysia().use(dashboard());
const front = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => assets.handle(request) });
const origin = `http://127.0.0.1:${front.port}`;
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "es-CL", timezoneId: "America/Santiago", acceptDownloads: true });
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
const page: Page = await context.newPage();
page.setDefaultTimeout(10_000);
await installFakeApi(page);
const fake = await installFakeReceived(page);

afterAll(async () => {
  await browser.close();
  front.stop(true);
});

async function noPhoneOverflow(name: string) {
  expect(await shoot(page, name), `${name}: horizontal scroll at 375 px`).toBeLessThanOrEqual(0);
  expect(await unlabeledControls(page), `${name}: form controls without a label`).toEqual([]);
}
const lastBody = (path: string) => fake.bodies.filter((b) => b.path === path && b.method !== "GET").at(-1);
const lastGet = (path: string) => fake.bodies.filter((b) => b.path === path && b.method === "GET").at(-1);

describe("received documents UI (scripted API)", () => {
  test("the list: in the navigation, deadline badges, filters in the query, pagination", async () => {
    await page.goto(`${origin}/dashboard/recibidos`);
    await page.waitForURL(/\/dashboard\/ingresar\?next=/);
    await page.getByLabel("Correo electrónico").fill("ana@empresa.cl");
    await page.getByLabel("Contraseña").fill("una-clave-bastante-larga");
    await page.getByRole("button", { name: "Ingresar" }).click();
    await page.waitForURL("**/dashboard/recibidos");
    await page.getByRole("heading", { name: "Recibidos", level: 1 }).waitFor();
    expect(await page.getByRole("navigation").getByRole("link", { name: "Recibidos" }).getAttribute("aria-current")).toBe("page");
    await page.getByText("Página 1 de 2 · 27 en total").waitFor();
    const row = (folio: number) => page.getByRole("row").filter({ hasText: `N° ${folio}` });
    await row(501).getByText("Vence en 3 días").waitFor();
    await row(502).getByText("Vence en 1 día").waitFor();
    await row(503).getByText("El SII aún no lo recibe").waitFor();
    await row(504).getByText("No verificado").waitFor();
    await row(77).getByText("Sin plazo").waitFor();
    await row(400).getByText("Aceptado tácitamente").waitFor();
    expect(await row(77).getByText("Factura de exportación electrónica").count()).toBe(1);
    await noPhoneOverflow("recibidos");

    await page.getByLabel("RUT emisor").fill("96790240-3");
    await page.getByLabel("Tipo").selectOption("33");
    await page.getByLabel("Estado").selectOption("SIN_RESPUESTA");
    await page.getByLabel("Desde").fill("2026-11-01");
    await page.getByLabel("Hasta").fill("2026-11-30");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.waitForURL(/estado=SIN_RESPUESTA/);
    await page.getByText("Página 1 de 1").waitFor();
    const last = lastGet("/received");
    expect(Object.fromEntries(["emisor_rut", "tipo", "estado", "desde", "hasta"].map((k) => [k, last?.query.get(k)]))).toEqual({
      emisor_rut: "96790240-3", tipo: "33", estado: "SIN_RESPUESTA", desde: "2026-11-01", hasta: "2026-11-30",
    });
    expect(last?.headers["x-business-id"]).toBe("biz_01fake");
    await page.getByRole("button", { name: "Limpiar" }).click();
    await page.getByRole("button", { name: "Siguiente →" }).click();
    await page.waitForURL(/recibidos\?page=2/);
    expect(lastGet("/received")?.query.get("page")).toBe("2");
  });

  test("a detail: emisor, amounts, items, verification, deadline, PDF and XML", async () => {
    await page.goto(`${origin}/dashboard/recibidos/rcv_01fake`);
    await page.getByRole("heading", { name: "Factura electrónica N° 501", level: 1 }).waitFor();
    await page.getByText("Papelera del Sur S.A.").first().waitFor();
    await page.getByRole("cell", { name: "Resmas de papel carta" }).waitFor();
    await page.getByTestId("verificacion").getByText("Documento verificado: firma, timbre electrónico, CAF del SII y receptor correctos.").waitFor();
    await page.getByTestId("plazo").getByText(/^Tienes hasta el .* para aceptarlo o reclamarlo; si no lo reclamas, queda aceptado tácitamente\.$/).waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Descargar XML" }).click();
    expect((await download).suggestedFilename()).toBe("DTE-96790240-3-33-501.xml");
    await page.getByRole("button", { name: "Ver PDF" }).click();
    expect((await page.getByTestId("pdf-frame").getAttribute("src")) ?? "").toStartWith("blob:");
    await page.waitForTimeout(1000);
    await noPhoneOverflow("recibido");
  });

  test("accepting with the receipt of goods (ERM): the Ley 19.983 declaration, the recinto, then Aceptado", async () => {
    const panel = page.getByTestId("decision");
    await panel.getByText(/letra b\) del Art\. 4, y la letra c\) del Art\. 5 de la Ley 19\.983/).waitFor();
    expect(await panel.getByLabel("Recinto de recepción").isDisabled()).toBe(true);
    await panel.getByLabel("Recibo de mercaderías o servicios (ERM)").check();
    await panel.getByLabel("Recinto de recepción").fill("Bodega Quilicura");
    await panel.getByRole("button", { name: "Aceptar", exact: true }).click();
    await page.getByRole("dialog").getByText("¿Aceptar y otorgar el recibo de mercaderías?").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Aceptar" }).click();
    await page.getByText("Documento aceptado, con recibo de mercaderías.").waitFor();
    expect(JSON.parse(lastBody("/received/rcv_01fake/aceptar")?.body ?? "{}")).toEqual({ recibo_mercaderias: true, recinto: "Bodega Quilicura" });
    await page.getByTestId("plazo").getByText("Aceptado", { exact: true }).waitFor();
    for (const codigo of ["ACD", "ERM"]) await page.getByRole("cell", { name: codigo, exact: true }).waitFor();
    // decided: accepting again or claiming is disabled, each saying why
    expect(await panel.getByRole("button", { name: "Reclamar" }).isDisabled()).toBe(true);
    await panel.getByText("Ya fue aceptado: ya no se puede reclamar.").waitFor();
    await panel.getByText("Ya fue aceptado, con recibo de mercaderías.").waitFor();
  });

  test("claiming: the three actions in words, a motivo required, then Reclamado", async () => {
    await page.goto(`${origin}/dashboard/recibidos/rcv_02fake`);
    const panel = page.getByTestId("decision");
    for (const text of ["El documento tiene errores", "Llegó solo una parte de lo facturado.", "No llegó nada de lo facturado."]) await panel.getByText(text, { exact: false }).waitFor();
    await panel.getByLabel(/Reclamo por falta parcial de mercaderías \(RFP\)/).check();
    await panel.getByRole("button", { name: "Reclamar" }).click();
    await panel.getByText("Este campo es obligatorio.").waitFor(); // nothing sent without a motivo
    expect(lastBody("/received/rcv_02fake/reclamar")).toBeUndefined();
    await panel.getByLabel("Explicación para el emisor").fill("Faltaron 5 resmas");
    await panel.getByRole("button", { name: "Reclamar" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Reclamar" }).click();
    await page.getByText("Documento reclamado.").waitFor();
    expect(JSON.parse(lastBody("/received/rcv_02fake/reclamar")?.body ?? "{}")).toEqual({ accion: "RFP", motivo: "Faltaron 5 resmas" });
    await page.getByTestId("plazo").getByText("Reclamado", { exact: true }).waitFor();
    expect(await panel.getByRole("button", { name: "Aceptar", exact: true }).isDisabled()).toBe(true);
  });

  test("forbidden actions: an unverified document can only be claimed, saying which checks failed", async () => {
    await page.goto(`${origin}/dashboard/recibidos/rcv_04fake`);
    const verification = page.getByTestId("verificacion");
    await verification.getByText("El timbre electrónico (TED) no corresponde a los datos del documento.").waitFor();
    await verification.getByText("El CAF del documento no fue autorizado por el SII de este ambiente.").waitFor();
    const panel = page.getByTestId("decision");
    expect(await panel.getByRole("button", { name: "Aceptar", exact: true }).isDisabled()).toBe(true);
    await panel.getByText("No pasó la verificación: un documento así solo se puede reclamar.").waitFor();
    expect(await panel.getByRole("button", { name: "Reclamar" }).isEnabled()).toBe(true);
    await noPhoneOverflow("recibido-no-verificado");
  });

  test("forbidden actions: an export takes no decision, a tacitly accepted one neither; a note has no legal deadline", async () => {
    await page.goto(`${origin}/dashboard/recibidos/rcv_05fake`);
    await page.getByRole("heading", { name: "Factura de exportación electrónica N° 77", level: 1 }).waitFor();
    expect(await page.getByTestId("decision").getByRole("button", { name: "Aceptar", exact: true }).isDisabled()).toBe(true);
    expect(await page.getByTestId("decision").getByRole("button", { name: "Reclamar" }).isDisabled()).toBe(true);
    expect(await page.getByTestId("decision").getByText(/no se aceptan ni se reclaman/).count()).toBe(2);

    await page.goto(`${origin}/dashboard/recibidos/rcv_06fake`);
    await page.getByRole("heading", { name: "Factura electrónica N° 400", level: 1 }).waitFor();
    expect(await page.getByTestId("decision").getByText("Pasaron los 8 días sin reclamo: el documento quedó aceptado tácitamente.").count()).toBe(2);
    await page.goto(`${origin}/dashboard/recibidos/rcv_07fake`);
    await page.getByText(/^Factura electrónica N° 480 del .*2026: Anula factura$/).waitFor();
    await page.getByTestId("plazo").getByText(/no tiene plazo legal/).waitFor();
  });

  test("the registry's refusals in Spanish: not at the SII yet (409), the SII silent (503)", async () => {
    await page.goto(`${origin}/dashboard/recibidos/rcv_03fake`);
    const panel = page.getByTestId("decision");
    await panel.getByRole("button", { name: "Aceptar", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Aceptar" }).click();
    await panel.getByRole("alert").filter({ hasText: "El SII aún no tiene este documento" }).waitFor();
    await panel.getByLabel("Explicación para el emisor").fill("Precio distinto al cotizado");
    await panel.getByRole("button", { name: "Reclamar" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Reclamar" }).click();
    await panel.getByRole("alert").filter({ hasText: "El SII no respondió: no se registró nada." }).waitFor();
    expect(await panel.getByRole("button", { name: "Reclamar" }).isEnabled()).toBe(true); // nothing recorded: try again
  });

  test("Importar XML: the per-document results; an envelope for another RUT refused in Spanish; the inbox", async () => {
    await page.goto(`${origin}/dashboard/recibidos`);
    await page.getByRole("link", { name: "Importar XML" }).click();
    await page.getByRole("heading", { name: "Importar XML recibido", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Importar" }).click();
    await page.getByText("Elige el archivo XML que te envió el proveedor.").waitFor();
    const file = page.getByLabel("Archivo XML (EnvioDTE)");
    await file.setInputFiles({ name: "otra-empresa.xml", mimeType: "application/xml", buffer: Buffer.from("<EnvioDTE/>") });
    await page.getByRole("button", { name: "Importar" }).click();
    await page.getByText("El sobre está dirigido a otro RUT, no a esta empresa.").waitFor();
    await file.setInputFiles({ name: "EnvioDTE_910.xml", mimeType: "application/xml", buffer: Buffer.from("<EnvioDTE version=\"1.0\"/>") });
    await page.getByLabel("Correo del emisor para las respuestas (opcional)").fill("dte@papelera.cl");
    await page.getByRole("button", { name: "Importar" }).click();
    const results = page.getByTestId("import-results");
    await results.getByText("3 documentos en el sobre: 2 importados.").waitFor();
    await results.getByRole("row").filter({ hasText: "N° 910" }).getByText("El SII aún no lo recibe").waitFor();
    await results.getByRole("row").filter({ hasText: "N° 501" }).getByText("Ya recibido").waitFor();
    await results.getByRole("row").filter({ hasText: "N° 911" }).getByText("La firma electrónica del documento no es válida").waitFor();
    const upload = lastBody("/received");
    expect(upload?.body ?? "").toContain('name="file"; filename="EnvioDTE_910.xml"');
    expect(upload?.body ?? "").toContain("dte@papelera.cl");
    await noPhoneOverflow("recibidos-importar");
    await results.getByRole("link", { name: "Factura electrónica N° 910" }).click();
    await page.getByRole("heading", { name: "Factura electrónica N° 910", level: 1 }).waitFor();

    await page.goto(`${origin}/dashboard/recibidos/bandeja`);
    await page.getByRole("heading", { name: "Correos no importados", level: 1 }).waitFor();
    await page.getByText("La firma del sobre no es válida.").waitFor();
    await page.getByText("Es una respuesta (acuse, resultado o recibo) que Timbre aún no procesa.").waitFor();
    await page.getByText("Casilla IMAP").waitFor();
    await noPhoneOverflow("recibidos-bandeja");
  });

  test("the business: its intercambio address to copy and register, the IMAP mailbox write-only, then removed", async () => {
    await page.goto(`${origin}/dashboard/empresas/biz_01fake`);
    const block = page.getByTestId("intercambio");
    const address = block.getByLabel("Correo de intercambio de la empresa");
    expect(await address.inputValue()).toBe("k3v9x2m8q4w7e1r5t6y0u2i8o4p6a1s3@intercambio.timbre.test");
    expect(await address.getAttribute("readonly")).not.toBeNull();
    await block.getByText(/correo de intercambio y mail de contacto SII/).waitFor();
    await block.getByRole("button", { name: "Copiar" }).click();
    await block.getByText("Copiado al portapapeles.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("k3v9x2m8q4w7e1r5t6y0u2i8o4p6a1s3@intercambio.timbre.test");
    await block.getByText("Sin casilla configurada.").waitFor(); // the server does not report `imap` (yet)
    const imap = block.getByLabel("URL de la casilla IMAP");
    expect(await imap.getAttribute("type")).toBe("password");
    await imap.fill("imaps://dte%40empresa.cl:clave-secreta@mail.empresa.cl:993/INBOX");
    await block.getByRole("button", { name: "Guardar casilla" }).click();
    await block.getByText("Casilla guardada. Timbre la revisará cada minuto.").waitFor();
    expect(JSON.parse(lastBody("/businesses/biz_01fake")?.body ?? "{}")).toEqual({ intercambio: { imap_url: "imaps://dte%40empresa.cl:clave-secreta@mail.empresa.cl:993/INBOX" } });
    expect(await imap.inputValue()).toBe(""); // not kept in the page
    await block.getByText("mail.empresa.cl", { exact: true }).waitFor();
    await block.getByText("El usuario o la contraseña de la casilla no son correctos.").waitFor();
    expect(await page.content()).not.toContain("clave-secreta");
    await noPhoneOverflow("empresa-intercambio");
    await block.getByRole("button", { name: "Quitar casilla" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Quitar" }).click();
    await block.getByText("Casilla quitada.").waitFor();
    expect(JSON.parse(lastBody("/businesses/biz_01fake")?.body ?? "{}")).toEqual({ intercambio: { imap_url: null } });
    await block.getByText("Sin casilla configurada.").waitFor();
    expect(await block.getByRole("button", { name: "Quitar casilla" }).isVisible()).toBe(false);
  });

  test("a document's delivery: recipients, failure, the receiver's answers, Reenviar to one address", async () => {
    await page.goto(`${origin}/dashboard/documentos/dte_00fake`);
    const panel = page.getByTestId("delivery");
    await panel.getByText("Fallido", { exact: true }).waitFor();
    await panel.getByText("dte@cliente.cl, pagos@cliente.cl").waitFor();
    await panel.getByText("550 5.1.1 mailbox unavailable").waitFor();
    await panel.getByRole("cell", { name: "Acuse de recibo" }).waitFor();
    await panel.getByRole("cell", { name: "Envío recibido conforme" }).waitFor();
    await panel.getByLabel("Enviar a otra dirección (opcional)").fill("contabilidad@cliente.cl");
    await panel.getByRole("button", { name: "Reenviar" }).click();
    await panel.getByText("Envío a contabilidad@cliente.cl en curso.").waitFor();
    await panel.getByText("Pendiente", { exact: true }).waitFor();
    expect(JSON.parse(lastBody("/dte/dte_00fake/enviar")?.body ?? "{}")).toEqual({ email: "contabilidad@cliente.cl" });
    await noPhoneOverflow("documento-envio");
    // a document without `intercambio` (an older server) shows no delivery panel
    await page.goto(`${origin}/dashboard/documentos/dte_02fake`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByTestId("delivery").count()).toBe(0);
  });
});
