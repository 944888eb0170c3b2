/**
 * `timbre dte batch` from a spreadsheet against the real server (child process, first-run sandbox account with its
 * certificate and CAFs): the template validates at preview, a sheet with bad rows emits the good documents and writes
 * the bad ones to a file of failed rows, the same file again emits nothing twice, and the sheet fixed and sent whole
 * emits only the fixed rows, on contiguous folios. A Windows-1252 `;` file keeps its accents.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { useFirstRunServer } from "./support/first-run-server.js";
import { freshHome, removeFreshHomes, runCli } from "./support/run-cli.js";

afterAll(removeFreshHomes);

const firstRun = useFirstRunServer();

interface Summary {
  total: number;
  emitted?: number;
  valid?: number;
  failed: number;
  monto_total: number;
  failed_file?: string;
  results: Array<{ index: number; rows: number[]; success: boolean; data?: { id: string; tipo: number; folio: number }; totals?: { monto_total: number }; problems?: Array<{ at: number; code: string; message: string }> }>;
}

test("template → dry run with the API's totals; nothing emitted", async () => {
  const home = freshHome();
  const template = await runCli(["dte", "batch", "--template"], { home });
  expect(template.code).toBe(0);
  expect(template.stdout).toStartWith("\uFEFFdocumento;tipo;fecha;"); // Excel in Chile opens it as it is
  const file = join(home, "ventas.csv");
  writeFileSync(file, template.stdout);
  const dry = await runCli(["dte", "batch", "--file", file, "--dry-run", "--json"], { home, env: firstRun.env });
  expect(dry.stderr).toBe("");
  expect(dry.code).toBe(0);
  const summary = dry.json as Summary;
  // factura: 10 × 3 990 net + IVA 7 581 + 5 000 exempt; boleta: 2,5 kg × 12 990 gross less 10 %
  expect(summary.results.map((r) => [r.rows, r.totals?.monto_total])).toEqual([[[2, 3], 52481], [[4], 29227]]);
  expect(summary).toMatchObject({ total: 2, valid: 2, failed: 0, monto_total: 81708 });
  const listed = await runCli(["dte", "list", "--json"], { home, env: firstRun.env });
  expect((listed.json as { data: unknown[] }).data).toEqual([]);
}, 60_000);

test("bad rows fail alone, go to a file of failed rows, and the sheet fixed and sent whole completes the run without a second folio", async () => {
  const home = freshHome();
  const file = join(home, "noviembre.csv");
  const sheet = [
    "Tipo;RUT;Razón Social;Giro;Dirección;Comuna;Nombre;Cantidad;Precio",
    "33;76192083-8;Cliente Malo;Comercio;Calle 1;Santiago;Asesoría;1;10.000",
    "33;96790240-3;Cliente Bueno;Comercio;Calle 2;Ñuñoa;Asesoría;2;1.500",
    ";;;;;;Traslado;1;-5",
    "39;66666666-6;Consumidor final;;;;Pan amasado;2;990",
    "",
  ].join("\r\n");
  writeFileSync(file, Buffer.from(sheet, "latin1")); // as Excel in Chile saves it: Windows-1252
  // Checked first: the API's verdict by row, nothing emitted.
  const dry = await runCli(["dte", "batch", "--file", file, "--dry-run", "--json"], { home, env: firstRun.env });
  expect(dry.code).toBe(1);
  expect((dry.json as Summary).results.flatMap((r) => r.problems ?? []).map((p) => [p.at, p.message.split(":")[0]])).toEqual([[2, "receptor.rut"], [4, "items[1].precio"]]);
  expect((dry.json as Summary).valid).toBe(1);
  expect(existsSync(join(home, "noviembre.fallidos.csv"))).toBe(false); // a check writes no file
  const first = await runCli(["dte", "batch", "--file", file, "--json"], { home, env: firstRun.env });
  expect(first.code).toBe(1);
  const summary = first.json as Summary;
  expect(summary).toMatchObject({ total: 3, emitted: 1, failed: 2, failed_file: join(home, "noviembre.fallidos.csv") });
  expect(summary.results.flatMap((r) => r.problems ?? []).map((p) => [p.at, p.code, p.message.split(":")[0]])).toEqual([
    [2, "VALIDATION_ERROR", "receptor.rut"],
    [4, "VALIDATION_ERROR", "items[1].precio"],
  ]);
  const boleta = summary.results[2]?.data;
  expect(boleta).toMatchObject({ tipo: 39, folio: 1 });

  const failedRows = readFileSync(summary.failed_file!, "utf8").replace(/^\uFEFF/, "").split("\r\n");
  expect(failedRows.slice(0, 4).map((r) => r.split(";").at(-1)?.split(":")[0])).toEqual(["error", "receptor.rut", "", "items[1].precio"]);
  expect(failedRows[2]).toStartWith("33;96790240-3;Cliente Bueno;Comercio;Calle 2;Ñuñoa;");

  // The same file again (an interrupted run re-run, say): the boleta as it was, no new folio.
  const again = await runCli(["dte", "batch", "--file", file, "--json"], { home, env: firstRun.env });
  expect((again.json as Summary).results[2]).toMatchObject({ replayed: true, data: { id: boleta!.id } });
  expect(again.json).toMatchObject({ requests: 1, emitted: 0, replayed: 1, failed: 2 });
  expect((first.json as { replayed: number }).replayed).toBe(0);
  const human = await runCli(["dte", "batch", "--file", file], { home, env: firstRun.env });
  expect(human.stdout).toContain("0 emitted, 1 emitted before, 2 failed, of 3");
  expect(human.stdout).toContain("1 document was emitted before from the same content (within 24 h)");
  expect(human.stdout).toContain("Boleta electrónica (39): 1 document, folio 1.");
  expect(human.stdout).toContain(`or fix them in ${file} and send it whole`);

  // The original sheet fixed where the errors point and sent whole: checked first, then only the fixed rows emitted.
  writeFileSync(file, Buffer.from(sheet.replace("76192083-8", "76192083-9").replace(";-5", ";5"), "latin1"));
  const recheck = await runCli(["dte", "batch", "--file", file, "--dry-run"], { home, env: firstRun.env });
  expect(recheck.code).toBe(0);
  expect(recheck.stdout).toContain("2 to emit, 1 emitted before, 0 with problems, of 3");
  expect(recheck.stdout).toMatch(/EMITTED BEFORE[\s\S]*folio 1/);
  const rest = await runCli(["dte", "batch", "--file", file, "--json"], { home, env: firstRun.env });
  expect(rest.code).toBe(0);
  expect(rest.json).toMatchObject({ total: 3, emitted: 2, replayed: 1, failed: 0 });
  expect((rest.json as Summary).results.map((r) => [r.data?.tipo, r.data?.folio, (r as { replayed?: boolean }).replayed ?? false])).toEqual([
    [33, 1, false],
    [33, 2, false],
    [39, 1, true],
  ]);

  const listed = (await runCli(["dte", "list", "--json"], { home, env: firstRun.env })).json as { data: Array<{ id: string; tipo: number; folio: number }> };
  expect(listed.data.map((d) => `${d.tipo}-${d.folio}`).sort()).toEqual(["33-1", "33-2", "39-1"]);
  const bueno = listed.data.find((d) => d.tipo === 33 && d.folio === 2)!;
  const shown = (await runCli(["dte", "show", bueno.id, "--json"], { home, env: firstRun.env })).json as { receptor: { comuna: string }; monto_total: number; items: unknown[] };
  expect(shown.receptor.comuna).toBe("Ñuñoa");
  expect(shown.monto_total).toBe(3576); // 2 × 1 500 + 5, plus IVA
  expect(shown.items).toHaveLength(2);
}, 90_000);

test("a sheet with problems sends nothing and lists every problem", async () => {
  const home = freshHome();
  const file = join(home, "mal.csv");
  writeFileSync(file, "tipo,rut,razon_social,nombre,cantidad,precio,descuento\n39,66666666-6,CF,Pan,dos,990,\n");
  const result = await runCli(["dte", "batch", "--file", file, "--json"], { home, env: firstRun.env });
  expect(result.code).toBe(2);
  expect(result.json).toMatchObject({ error: { code: "INVALID_BATCH_FILE", details: { problems: [{ row: 1, reason: "unknown_column", value: "descuento" }] } } });
  const human = await runCli(["dte", "batch", "--file", file], { home, env: firstRun.env });
  expect(human.stderr).toContain("row 1 (descuento): unknown column «descuento»");
  writeFileSync(file, "tipo,rut,razon_social,nombre,cantidad,precio\n39,66666666-6,CF,Pan,dos,990\n,,,Leche,1,1.2.3\n");
  const cells = await runCli(["dte", "batch", "--file", file], { home, env: firstRun.env });
  expect(cells.code).toBe(2);
  expect(cells.stderr).toContain("row 2 (item.cantidad): item.cantidad «dos» is not a number");
  expect(cells.stderr).toContain("row 3 (item.precio)");
}, 60_000);

test("an Excel workbook (.xlsx) is read like its CSV: exact decimals, the failed rows as a CSV beside it", async () => {
  const home = freshHome();
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([
    ["tipo", "rut", "razon_social", "nombre", "cantidad", "precio"],
    [39, null, null, "Queso por kilo", 0.735, 11990],
    [39, null, null, "Sin precio", 1, -1],
  ]), "Boletas");
  const file = join(home, "boletas.xlsx");
  writeFileSync(file, new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx", compression: true }) as ArrayBuffer));
  const result = await runCli(["dte", "batch", "--file", file, "--json"], { home, env: firstRun.env });
  expect(result.code).toBe(1);
  const summary = result.json as Summary & { results: Array<{ data?: { monto_total: number } }> };
  expect(summary).toMatchObject({ total: 2, emitted: 1, failed: 1, failed_file: join(home, "boletas.fallidos.csv") });
  expect(summary.results[0]?.data?.monto_total).toBe(8813); // 0,735 kg × 11 990 with IVA, rounded once
  expect(readFileSync(join(home, "boletas.fallidos.csv"), "utf8")).toContain("Sin precio;1;-1;items[0].precio");
}, 60_000);

test("--wait: the SII's verdict on every document of the run, the rejected one at its row, exit 1", async () => {
  const home = freshHome();
  const file = join(home, "diciembre.csv");
  writeFileSync(file, [
    "tipo;rut;razon_social;giro;direccion;comuna;nombre;cantidad;precio",
    "33;96790240-3;Cliente Bueno;Comercio;Calle 2;Santiago;Asesoría;1;20.000",
    "33;96790240-3;Cliente [sandbox:rechazo];Comercio;Calle 2;Santiago;Asesoría;1;30.000",
    "",
  ].join("\r\n"));
  const human = await runCli(["dte", "batch", "--file", file, "--wait", "--interval", "1", "--timeout", "60"], { home, env: firstRun.env });
  expect(human.code).toBe(1);
  expect(human.stdout).toContain("2 emitted, 0 failed, of 2");
  expect(human.stdout).toContain("SII: 1 ACEPTADO, 1 RECHAZADO.");
  expect(human.stdout).toMatch(/ {2}row 3: Factura electrónica folio \d+ RECHAZADO — `timbre dte status dte_\w+` says why/);
  // The same file again with --json: both answered as emitted before, with their final states.
  const again = await runCli(["dte", "batch", "--file", file, "--wait", "--interval", "1", "--json"], { home, env: firstRun.env });
  expect((again.json as Summary).results.map((r) => [(r as { replayed?: boolean }).replayed, (r.data as { estado?: string } | undefined)?.estado])).toEqual([
    [true, "ACEPTADO"],
    [true, "RECHAZADO"],
  ]);
}, 90_000);
