/**
 * The built CLI (`node bin/run.js`) against the real server started as a child process
 * (`bun apps/server/src/main.ts`, temp TIMBRE_DATA_DIR, free port, SII sandbox): login, business,
 * certificate, sandbox CAF, emit, status --wait until ACEPTADO, PDF download, --json output.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "../../../packages/sdk/test/support/server-process.js";
import { ensureBuilt, freshHome, removeFreshHomes, runCli } from "./support/run-cli.js";

afterAll(removeFreshHomes);

const coreTesting = (await import(new URL("../../../packages/core/src/testing/index.ts", import.meta.url).href)) as {
  generateTestCertificate(options: Record<string, unknown>): Promise<{ p12: Uint8Array; password: string }>;
};

let server: ServerProcess;
beforeAll(async () => {
  ensureBuilt();
  server = await startServerProcess();
}, 120_000);
afterAll(() => server?.stop());

test("login → business → certificate → sandbox CAF → emit → status --wait → pdf, with --json", async () => {
  const home = freshHome();
  const email = `cli-docs-${crypto.randomUUID()}@example.com`;
  const password = "una clave bien larga";
  const registered = await fetch(`${server.baseUrl}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, nombre: "Cli User" }),
  });
  expect(registered.status).toBe(201);

  const login = await runCli(["login", "--email", email, "--password", password, "--api-url", server.baseUrl], { home });
  expect(login.code).toBe(0);

  const business = await runCli(
    ["businesses", "create", "--rut", "76192083-9", "--razon-social", "Café Austral SpA", "--giro", "Cafetería", "--acteco", "561000",
      "--direccion", "Av. Providencia 1234", "--comuna", "Providencia", "--json"],
    { home },
  );
  expect(business.code).toBe(0);
  const businessId = (business.json as { id: string }).id;
  expect((await runCli(["businesses", "use", businessId], { home })).code).toBe(0);

  const now = Date.now();
  const cert = await coreTesting.generateTestCertificate({
    rut: "11111111-1", name: "ANA PEREZ", password: "clave",
    validFrom: new Date(now - 86_400_000), validTo: new Date(now + 365 * 86_400_000),
  });
  const p12 = join(home, "firma.p12");
  writeFileSync(p12, cert.p12);
  const upload = await runCli(["certificates", "upload", "--file", p12, "--json"], { home, env: { TIMBRE_CERT_PASSWORD: cert.password } });
  expect(upload.stderr).toBe("");
  expect(upload.code).toBe(0);

  const caf = await runCli(["numerations", "sandbox", "--tipo", "33", "--cantidad", "100", "--json"], { home });
  expect(caf.code).toBe(0);
  expect(caf.json).toMatchObject({ tipo: 33, desde: 1, hasta: 100, disponibles: 100 });
  const list = await runCli(["numerations", "list", "--json"], { home });
  expect(list.code).toBe(0);

  const file = join(home, "factura.json");
  writeFileSync(file, JSON.stringify({
    tipo: 33,
    receptor: { rut: "60803000-K", razon_social: "Cliente de Prueba Ltda", giro: "Comercio", direccion: "Calle Falsa 123", comuna: "Santiago" },
    items: [{ nombre: "Servicio de consultoría", cantidad: 2, precio: 50000 }],
  }));
  const emitted = await runCli(["dte", "emit", "--file", file, "--json"], { home });
  expect(emitted.stderr).toBe("");
  expect(emitted.code).toBe(0);
  const dte = emitted.json as { id: string; folio: number; monto_total: number };
  expect(dte).toMatchObject({ folio: 1, monto_total: 119000 });

  const human = await runCli(["dte", "show", dte.id], { home });
  expect(human.code).toBe(0);
  expect(human.stdout).toContain("119.000");
  expect(human.stdout).toContain("Receptor:\n  giro: Comercio\n  dirección: Calle Falsa 123, Santiago\n");

  const status = await runCli(["dte", "status", dte.id, "--wait", "--interval", "1", "--timeout", "30", "--json"], { home });
  expect(status.code).toBe(0);
  expect((status.json as { estado: string }).estado).toBe("ACEPTADO");

  const out = join(home, "factura.pdf");
  const pdf = await runCli(["dte", "pdf", dte.id, "-o", out], { home });
  expect(pdf.code).toBe(0);
  expect(readFileSync(out).subarray(0, 5).toString("latin1")).toBe("%PDF-");

  const listed = await runCli(["dte", "list", "--json"], { home });
  expect((listed.json as { data: Array<{ id: string }> }).data.map((d) => d.id)).toEqual([dte.id]);

  // Logging in again keeps acting for the account's business: no `businesses use` needed.
  expect((await runCli(["logout"], { home })).code).toBe(0);
  const again = await runCli(["login", "--email", email, "--password", password], { home });
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`Acting for Café Austral SpA (${businessId}).`);

  // A quick boleta, waited for without a terminal (one line per state), then annulled as it is: the credit note
  // to the anonymous consumer needs no giro or address.
  for (const tipo of ["39", "61"]) expect((await runCli(["numerations", "sandbox", "--tipo", tipo, "--cantidad", "10"], { home })).code).toBe(0);
  const boleta = await runCli(["dte", "emit", "--item", "Café:2:1500", "--wait"], { home });
  expect(boleta.code).toBe(0);
  // what the quick boleta chose is said first, then the progress
  expect(boleta.stderr).toMatch(/^Receptor: 66666666-6, the anonymous consumer .*\nPrices: gross, IVA included \(precios_brutos: true.*\nWaiting for the SII on folio 1: ENVIADO\n(Waiting for the SII on folio 1: ACEPTADO\n)$/);
  const boletaId = /Emitted (dte_\w+)\./.exec(boleta.stdout)?.[1] ?? "";
  const nota = await runCli(["dte", "anular", boletaId, "--razon", "Devolución del producto", "--json"], { home });
  expect(nota.stderr).toBe("");
  expect(nota.code).toBe(0);
  const note = nota.json as { id: string; tipo: number; monto_total: number; receptor: { rut: string } };
  expect(note).toMatchObject({ tipo: 61, monto_total: 3000, receptor: { rut: "66666666-6" } });
  const noteShown = await runCli(["dte", "show", note.id], { home });
  expect(noteShown.stdout).toContain("Referencias:\n  Boleta electrónica N° 1 del ");
  expect(noteShown.stdout).not.toContain("Receptor:"); // the anonymous consumer has no address
  const shown = await runCli(["dte", "show", note.id, "--json"], { home });
  expect((shown.json as { referencias: unknown[] }).referencias).toEqual([{ tipo_doc: 39, folio: 1, fecha: expect.any(String), razon: "Devolución del producto", codigo: 1 }]);

  // The accountant's month: a spreadsheet of the documents and the sales by tipo with the débito fiscal.
  const fecha = (emitted.json as { fecha: string }).fecha;
  const csv = await runCli(["dte", "list", "--all", "--csv", "--separator", ";", "--desde", fecha, "--hasta", fecha], { home });
  expect(csv.code).toBe(0);
  expect(csv.stdout).toStartWith("\uFEFF"); // so Excel reads it as UTF-8
  const rows = csv.stdout.slice(1).split("\r\n");
  expect(rows[0]).toBe("id;tipo;folio;fecha;receptor_rut;receptor_razon_social;monto_neto;monto_exento;monto_iva;monto_total;estado;track_id");
  expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^${dte.id};33;1;${fecha};60803000-K;Cliente de Prueba Ltda;100000;0;19000;119000;ACEPTADO;\\d+$`)));
  expect(rows.filter((r) => r.startsWith("dte_"))).toHaveLength(3);
  const onePage = await runCli(["dte", "list", "--csv", "--limit", "1"], { home });
  expect(onePage.stdout.split("\r\n").filter((r) => r.startsWith("dte_"))).toHaveLength(1);
  expect(onePage.stderr).toBe("The CSV holds 1 of 3 documents (one page); add --all for every one.\n");
  expect(csv.stderr).toBe(""); // --all: nothing to warn about
  const both = await runCli(["dte", "list", "--csv", "--json"], { home }); // one format at a time
  expect(both.code).toBe(2);
  expect(both.json).toEqual({ error: { code: "USAGE", message: "--json=true cannot also be provided when using --csv" } });
  const resumen = await runCli(["dte", "resumen", "--mes", fecha.slice(0, 7), "--json"], { home });
  expect(resumen.code).toBe(0);
  // The boleta (3 000 gross: 2 521 + IVA 479) and the note annulling it cancel out; the factura's 19 000 remains.
  expect(resumen.json).toMatchObject({
    desde: `${fecha.slice(0, 7)}-01`,
    tipos: [
      { tipo: 33, documentos: 1, monto_iva: 19000, monto_total: 119000 },
      { tipo: 39, documentos: 1, monto_neto: 2521, monto_iva: 479, monto_total: 3000 },
      { tipo: 61, documentos: 1, monto_iva: 479, monto_total: 3000 },
    ],
    debito_fiscal: 19000,
    total_neto_de_notas: 119000,
    rechazados: 0,
  });
  const summaryText = await runCli(["dte", "resumen", "--mes", fecha.slice(0, 7)], { home });
  expect(summaryText.stdout).toContain("Débito fiscal (IVA): $19.000");
  expect(summaryText.stdout).toContain("61 Nota de crédito (resta)");
  const badMonth = await runCli(["dte", "resumen", "--mes", "2026-13"], { home });
  expect(badMonth.code).toBe(2);
  expect(badMonth.stderr).toContain("--mes must be YYYY-MM");

  // A quick factura from flags to a receptor invoiced before: the fields not given come from the last document to
  // it, and the command says so; annulled with a new address for the note.
  const quick = await runCli(["dte", "emit", "--tipo", "33", "--receptor-rut", "60.803.000-K", "--item", "Asesoría:1:10000", "--forma-pago", "contado", "--json"], { home });
  expect(quick.code).toBe(0);
  expect(quick.stderr).toContain(`Receptor razon_social, giro, direccion, comuna taken from the last document to 60.803.000-K (tipo 33 N° 1, ${dte.id}).`);
  const quickId = (quick.json as { id: string }).id;
  const quickShown = (await runCli(["dte", "show", quickId, "--json"], { home })).json as { forma_pago: number; receptor: Record<string, string> };
  expect(quickShown).toMatchObject({ forma_pago: 1, receptor: { rut: "60803000-K", razon_social: "Cliente de Prueba Ltda", giro: "Comercio", direccion: "Calle Falsa 123", comuna: "Santiago" } });
  const moved = await runCli(["dte", "anular", quickId, "--receptor-direccion", "Nueva 123", "--receptor-comuna", "Ñuñoa", "--json"], { home });
  expect(moved.code).toBe(0);
  const movedShown = (await runCli(["dte", "show", (moved.json as { id: string }).id, "--json"], { home })).json as { receptor: Record<string, string> };
  expect(movedShown.receptor).toMatchObject({ razon_social: "Cliente de Prueba Ltda", direccion: "Nueva 123", comuna: "Ñuñoa" });
  // Nobody invoiced before and no name given: the server says what is missing.
  const unknown = await runCli(["dte", "emit", "--tipo", "33", "--receptor-rut", "96790240-3", "--item", "Asesoría:1:10000"], { home });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain("receptor.razon_social");
}, 90_000);
