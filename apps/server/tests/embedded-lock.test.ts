/**
 * Embedded mode in real processes: first run creates the sandbox account and prints its key; a second process
 * on the same data directory refuses to start; SIGTERM stops gracefully and removes the lock file; a restart
 * reuses the data (no second sandbox account).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runServerToExit, startServer, type ServerProcess } from "./support/server-process.js";

const dir = mkdtempSync(join(tmpdir(), "timbre-embedded-"));
const env = { TIMBRE_DATA_DIR: dir, DATABASE_URL: "" };
let first: ServerProcess;

beforeAll(async () => {
  // An existing data directory as `mkdir` leaves it under a usual umask: the server narrows it.
  chmodSync(dir, 0o755);
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

test("the data directory becomes 0700 and everything written in it is private to its owner (0600 files)", () => {
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const walk = (path: string): string[] => [path, ...(statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => walk(join(path, name))) : [])];
  const entries = walk(dir).slice(1).map((path) => ({ path, stat: statSync(path) }));
  const files = entries.filter((e) => e.stat.isFile());
  expect(files.length).toBeGreaterThan(50); // PGlite's cluster, the secrets
  expect(files.filter((e) => (e.stat.mode & 0o077) !== 0).map((e) => e.path)).toEqual([]);
  expect(entries.filter((e) => e.stat.isDirectory() && (e.stat.mode & 0o077) !== 0).map((e) => e.path)).toEqual([]);
  expect(statSync(join(dir, "master.key")).mode & 0o777).toBe(0o600);
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
