// Runs the example under node against the real server (a child process in sandbox mode) and checks what it saved.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SandboxTenant, type ServerProcess, sandboxTenant, startServerProcess } from "../../packages/sdk/test/support/server-process.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const sdkDir = fileURLToPath(new URL("../../packages/sdk", import.meta.url));
let server: ServerProcess;
let tenant: SandboxTenant;

beforeAll(async () => {
  if (!existsSync(join(sdkDir, "dist/index.js"))) spawnSync("npm", ["run", "build"], { cwd: sdkDir });
  server = await startServerProcess();
  tenant = await sandboxTenant(server.baseUrl, { tipos: [33] });
}, 120_000);
afterAll(() => server?.stop());

test("emits, waits for acceptance and saves the PDF and XML", async () => {
  const out = mkdtempSync(join(tmpdir(), "emit-invoice-"));
  const child = Bun.spawn(["node", "emit-invoice.js"], {
    cwd: here,
    env: { ...process.env, TIMBRE_API_KEY: tenant.apiKey, TIMBRE_API_URL: server.baseUrl, OUT_DIR: out, POLL_INTERVAL_MS: "100" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(stdout).toContain("folio 1,");
  expect(stdout).toContain("ACEPTADO");
  expect(readFileSync(join(out, "factura-1.pdf")).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(readFileSync(join(out, "factura-1.xml"), "latin1")).toContain("<Folio>1</Folio>");
}, 60_000);
