// Runs the example under node against the real server (a child process in sandbox mode): a sheet with a wrong RUT
// emits the good document and writes the bad row; the same sheet fixed emits only that one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SandboxTenant, type ServerProcess, sandboxTenant, startServerProcess } from "../../packages/sdk/test/support/server-process.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const sdkDir = fileURLToPath(new URL("../../packages/sdk", import.meta.url));
let server: ServerProcess;
let tenant: SandboxTenant;

beforeAll(async () => {
  if (!existsSync(join(sdkDir, "dist/csv/index.js"))) spawnSync("npm", ["run", "build"], { cwd: sdkDir });
  server = await startServerProcess();
  tenant = await sandboxTenant(server.baseUrl, { tipos: [33, 39] });
}, 120_000);
afterAll(() => server?.stop());

async function run(file: string, outDir: string) {
  const child = Bun.spawn(["node", "import-sheet.js", file], {
    cwd: here,
    env: { ...process.env, TIMBRE_API_KEY: tenant.apiKey, TIMBRE_API_URL: server.baseUrl, OUT_DIR: outDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

test("a wrong RUT fails at its row and goes to the failed rows; the sheet fixed emits only that document", async () => {
  const dir = mkdtempSync(join(tmpdir(), "import-sheet-"));
  const file = join(dir, "ventas.csv");
  const sheet = [
    "tipo;rut;razon_social;giro;direccion;comuna;nombre;cantidad;precio",
    "39;;;;;;Pan amasado;2;990",
    "33;76192083-8;Cliente SpA;Comercio;Calle 1;Ñuñoa;Asesoría;1;10.000",
    "",
  ].join("\r\n");
  writeFileSync(file, Buffer.from(sheet, "latin1")); // as Excel in Chile saves it

  const out = mkdtempSync(join(tmpdir(), "import-sheet-out-"));
  const first = await run(file, out);
  expect(first.stderr).toBe("");
  expect(first.code).toBe(1);
  expect(first.stdout).toContain("2 documents: 1 to emit, 0 emitted before, 1 with problems");
  expect(first.stdout).toMatch(/rows 2: tipo 39 folio 1 ENVIADO\n/);
  expect(first.stdout).toContain("row 3: receptor.rut:");
  const failed = readFileSync(join(out, "ventas.fallidos.csv"), "utf8");
  expect(first.stdout).toContain(`Failed rows written to ${join(out, "ventas.fallidos.csv")}`);
  expect(readdirSync(dir)).toEqual(["ventas.csv"]); // nothing written beside the sheet
  expect(failed).toContain("76192083-8");
  expect(failed).not.toContain("Pan amasado");

  writeFileSync(file, Buffer.from(sheet.replace("76192083-8", "76192083-9"), "latin1"));
  const second = await run(file, out);
  expect(second.stderr).toBe("");
  expect(second.code).toBe(0);
  expect(second.stdout).toContain("2 documents: 1 to emit, 1 emitted before, 0 with problems");
  // The boleta as it is now: still ENVIADO, or already answered by the SII.
  expect(second.stdout).toMatch(/rows 2: tipo 39 folio 1 (ENVIADO|ACEPTADO) \(emitted before\)\n/);
  expect(second.stdout).toMatch(/rows 3: tipo 33 folio 1 ENVIADO\n/);
}, 60_000);
