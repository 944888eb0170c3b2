// Runs the example under node against a scripted loopback API and checks what it sent and saved.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ok, type RecordingServer, startRecordingServer } from "../../packages/sdk/test/support/recording-server.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const sdkDir = fileURLToPath(new URL("../../packages/sdk", import.meta.url));
let api: RecordingServer;
const pdfBytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]);

beforeAll(() => {
  if (!existsSync(join(sdkDir, "dist/index.js"))) spawnSync("npm", ["run", "build"], { cwd: sdkDir });
  let polls = 0;
  api = startRecordingServer((req) => {
    if (req.path === "/v1/dte/emit") {
      return ok({ id: "dte_1", tipo: 33, folio: 120, monto_total: 642600, estado: "ENVIADO" }, {}, 201);
    }
    if (req.path === "/v1/dte/dte_1/status") return ok({ id: "dte_1", estado: ++polls < 2 ? "ENVIADO" : "ACEPTADO", historial: [] });
    if (req.path === "/v1/dte/dte_1/pdf") return new Response(pdfBytes, { headers: { "content-type": "application/pdf" } });
    if (req.path === "/v1/dte/dte_1/xml") return new Response("<DTE/>", { headers: { "content-type": "application/xml" } });
    return new Response("not found", { status: 404 });
  });
}, 120_000);
afterAll(() => api.stop());

test("emits, waits for acceptance and saves the PDF", async () => {
  const out = mkdtempSync(join(tmpdir(), "emit-invoice-"));
  const child = Bun.spawn(["node", "emit-invoice.js"], {
    cwd: here,
    env: { ...process.env, TIMBRE_API_KEY: "sk_test_example", TIMBRE_API_URL: api.baseUrl, OUT_DIR: out, POLL_INTERVAL_MS: "10" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(stdout).toContain("folio 120");
  expect(stdout).toContain("ACEPTADO");
  expect([...readFileSync(join(out, "factura-120.pdf"))]).toEqual([...pdfBytes]);
  const emitted = JSON.parse(api.requests[0]?.body ?? "{}");
  expect(emitted.tipo).toBe(33);
  expect(api.requests[0]?.headers.get("idempotency-key")).toBeTruthy();
}, 30_000);
