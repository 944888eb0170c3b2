/**
 * A real server process on an embedded data directory, stopped and started again: every start prints where the API,
 * the docs and the dashboard are and how to get a key; the in-process sandbox SII still knows the documents it
 * received before the restart (their status and the receiver's registry answer, never "18: no recibido").
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type ServerProcess } from "./support/server-process.js";

const dir = mkdtempSync(join(tmpdir(), "timbre-restart-"));
const env = { TIMBRE_DATA_DIR: dir, DATABASE_URL: "", SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" };
const running: ServerProcess[] = [];

afterAll(async () => {
  for (const server of running) await server.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function start(): Promise<ServerProcess> {
  const server = await startServer(env, 120_000);
  running.push(server);
  // the banners follow the "listening" line
  for (let i = 0; i < 400 && !server.output().includes("Timbre is running"); i++) await Bun.sleep(50);
  return server;
}

const portOf = (server: ServerProcess) => new URL(server.url).port;

async function call(server: ServerProcess, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as { data: Record<string, unknown> } };
}

test("a restart keeps the sandbox SII's memory; each start prints the API, docs, dashboard and how to get a key", async () => {
  const first = await start();
  const port = portOf(first);
  const out = first.output();
  const key = /sk_test_[0-9A-Za-z]{32}/.exec(out)?.[0] ?? "";
  expect(key).not.toBe("");
  expect(out).toContain(`    API        http://localhost:${port}/v1`);
  expect(out).toContain(`    docs       http://localhost:${port}/v1/docs`);
  expect(out).toContain(`    dashboard  http://localhost:${port}/dashboard`);
  expect(out).toContain("    API key    the test key printed above (shown once)");

  const emitted = await call(first, key, "POST", "/dte/emit", {
    tipo: 33,
    receptor: { rut: "96790240-3", razon_social: "Cliente de Prueba Ltda.", giro: "Comercio", direccion: "Calle 1", comuna: "Santiago" },
    items: [{ nombre: "Asesoría", cantidad: 1, precio: 100000 }],
  });
  expect(emitted.status).toBe(201);
  const id = String(emitted.json.data.id);
  let estado = "";
  for (let i = 0; i < 100 && estado !== "ACEPTADO"; i++) {
    estado = String((await call(first, key, "GET", `/dte/${id}/status?refresh=true`)).json.data.estado);
    if (estado !== "ACEPTADO") await Bun.sleep(100);
  }
  expect(estado).toBe("ACEPTADO");
  expect(await first.stop("SIGTERM")).toBe(0);

  const second = await start();
  const again = second.output();
  expect(again).not.toContain("Sandbox account created");
  expect(again).not.toContain(key);
  const origin = `http://localhost:${portOf(second)}`;
  expect(again).toContain(`    API        ${origin}/v1`);
  expect(again).toContain(`    docs       ${origin}/v1/docs`);
  expect(again).toContain(`    dashboard  ${origin}/dashboard`);
  expect(again).toContain("    sign in    demo@timbre.local (the sandbox account; its password was printed at the first start)");
  expect(again).toContain(`    API key    create one in the dashboard, ${origin}/dashboard/claves`);
  expect(again).toContain(`timbre login --api-url ${origin} && timbre tokens create`);

  const before = Date.now();
  const acceptance = await call(second, key, "GET", `/dte/${id}/aceptacion?refresh=true`);
  expect(acceptance.status).toBe(200);
  // the SII's registry answered about this factura: it has it, received before the restart, 8 days to run
  expect(acceptance.json.data).toMatchObject({ estado: "SIN_RESPUESTA" });
  expect(Date.parse(String(acceptance.json.data.consultado_at))).toBeGreaterThanOrEqual(before - 1000);
  expect(Date.parse(String(acceptance.json.data.recibido_sii_at))).toBeLessThan(before);
  const status = await call(second, key, "GET", `/dte/${id}/status?refresh=true`);
  expect(status.json.data).toMatchObject({ estado: "ACEPTADO" });
  expect(JSON.stringify(status.json.data)).not.toContain("no ha sido recibido");
}, 300_000);
