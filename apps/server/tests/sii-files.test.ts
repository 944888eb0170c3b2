/**
 * The SII's files in real server processes: with nothing set, `src/main.ts` starts on the copies bundled in
 * `@timbre/sii-data` without a warning; pointed at an empty folder, it refuses to start naming the setting; the
 * in-process sandbox validates every envelope against the schemas of the folder in use.
 */
import { afterAll, expect, test } from "bun:test";
import { authorityCertsDir, schemasDir } from "@timbre/sii-data";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runServerToExit, startServer } from "./support/server-process.js";

const scratch: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** An embedded server in a fresh data directory, in sandbox mode (the default), with the settings given. */
const embedded = (env: Record<string, string>) => ({ DATABASE_URL: "", TIMBRE_DATA_DIR: tempDir("timbre-data-"), SII_MODE: "sandbox", ...env });

test("TIMBRE_SII_SCHEMAS at an empty folder: the server exits 1, stderr names the setting", async () => {
  const { code, output } = await runServerToExit(embedded({ TIMBRE_SII_SCHEMAS: tempDir("timbre-no-schemas-") }));
  expect(code).toBe(1);
  expect(output).toContain("timbre: SII schemas not found");
  expect(output).toContain("TIMBRE_SII_SCHEMAS");
  expect(output).not.toContain('"msg":"listening"');
}, 60_000);

test("TIMBRE_SII_CERTS_DIR at an empty folder: the server exits 1, stderr names the setting", async () => {
  const { code, output } = await runServerToExit(embedded({ TIMBRE_SII_CERTS_DIR: tempDir("timbre-no-certs-") }));
  expect(code).toBe(1);
  expect(output).toContain("timbre: SII authority keys not found");
  expect(output).toContain("TIMBRE_SII_CERTS_DIR");
  expect(output).not.toContain('"msg":"listening"');
}, 60_000);

test("nothing set: the server starts on the bundled files, and says nothing is missing", async () => {
  const server = await startServer(embedded({}), 240_000);
  try {
    expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    expect(server.output()).not.toMatch(/not found|missing|not XSD-validated/i);
  } finally {
    expect(await server.stop()).toBe(0);
  }
}, 300_000);

/** Waits for the first run's banner and returns its test API key. */
async function sandboxKey(output: () => string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const key = /sk_test_[0-9A-Za-z]{32}/.exec(output())?.[0];
    if (key) return key;
    await Bun.sleep(50);
  }
  throw new Error(`no sandbox key in:\n${output()}`);
}

test("the in-process sandbox validates each envelope against the schemas in use: one refusing every EnvioDTE → RECHAZADO", async () => {
  // A copy of the bundled schemas whose EnvioDTE demands version 9.9: every real envelope fails it.
  const schemas = tempDir("timbre-strict-schemas-");
  cpSync(schemasDir(), schemas, { recursive: true });
  const main = join(schemas, "EnvioDTE_v10.xsd");
  const text = readFileSync(main, "latin1");
  const strict = text.replace(/(<xs:attribute name="version" type="xs:decimal" use="required" fixed=")1\.0("\/>\s*<\/xs:complexType>\s*<\/xs:element>\s*<\/xs:schema>)/, "$19.9$2");
  expect(strict).not.toBe(text);
  writeFileSync(main, strict, "latin1");
  const server = await startServer(embedded({ TIMBRE_SII_SCHEMAS: schemas, TIMBRE_SII_CERTS_DIR: authorityCertsDir() }), 240_000);
  try {
    const key = await sandboxKey(server.output);
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const emitted = await fetch(`${server.url}/v1/dte/emit`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        tipo: 33,
        receptor: { rut: "96790240-3", razon_social: "Cliente de Prueba Ltda.", giro: "Comercio", direccion: "Calle 1", comuna: "Santiago" },
        items: [{ nombre: "Servicio", cantidad: 1, precio: 10000 }],
        forma_pago: 1,
      }),
    });
    expect([201, 202]).toContain(emitted.status);
    const id = ((await emitted.json()) as { data: { id: string } }).data.id;
    let status: { estado: string; sii?: { errores?: { descripcion: string }[] } } = { estado: "" };
    for (let i = 0; i < 120 && status.estado !== "RECHAZADO"; i++) {
      status = ((await (await fetch(`${server.url}/v1/dte/${id}/status`, { headers })).json()) as { data: typeof status }).data;
      if (status.estado !== "RECHAZADO") await Bun.sleep(250);
    }
    expect(status.estado).toBe("RECHAZADO");
    expect(JSON.stringify(status.sii?.errores ?? [])).toContain("9.9");
  } finally {
    expect(await server.stop()).toBe(0);
  }
}, 360_000);
