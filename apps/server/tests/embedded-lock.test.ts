/**
 * Embedded mode in real processes: first run creates the sandbox account and prints its key; a second process
 * on the same data directory refuses to start; SIGTERM stops gracefully and removes the lock file; a restart
 * reuses the data (no second sandbox account).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runServerToExit, startServer, type ServerProcess } from "./support/server-process.js";

const dir = mkdtempSync(join(tmpdir(), "timbre-embedded-"));
const env = { TIMBRE_DATA_DIR: dir, DATABASE_URL: "" };
let first: ServerProcess;

beforeAll(async () => {
  first = await startServer(env, 90_000);
  // The banner follows the "listening" line.
  for (let i = 0; i < 200 && !/sk_test_[0-9A-Za-z]{32}/.test(first.output()); i++) await Bun.sleep(50);
}, 120_000);

afterAll(async () => {
  await first?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

test("first run: sandbox key printed and usable; secrets generated with a notice, never printed", async () => {
  const key = /sk_test_[0-9A-Za-z]{32}/.exec(first.output())?.[0];
  expect(key).toBeDefined();
  const me = await fetch(`${first.url}/v1/auth/me`, { headers: { "x-api-key": key ?? "" } });
  expect(me.status).toBe(200);
  expect(first.output()).toContain("generated a new secret");
  const master = await Bun.file(join(dir, "master.key")).text();
  expect(first.output()).not.toContain(master.trim());
});

test("a second process on the same data directory refuses to start with a clear message", async () => {
  const second = await runServerToExit(env);
  expect(second.code).toBe(1);
  expect(second.output).toContain(`in use by process ${first.pid}`);
}, 60_000);

test("SIGTERM: graceful stop removes the lock; a restart reuses the data without a new sandbox account", async () => {
  expect(existsSync(join(dir, "timbre.lock"))).toBe(true);
  expect(await first.stop("SIGTERM")).toBe(0);
  expect(existsSync(join(dir, "timbre.lock"))).toBe(false);
  const again = await startServer(env, 90_000);
  try {
    expect(again.output()).not.toContain("Sandbox account created");
    expect((await fetch(`${again.url}/v1/health`)).status).toBe(200);
  } finally {
    expect(await again.stop("SIGINT")).toBe(0);
  }
}, 120_000);
