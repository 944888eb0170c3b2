/**
 * One set of secrets per database (API.md §14), with real `bun src/main.ts` processes on a real PostgreSQL: the
 * first process on a fresh database generates the secrets into 0600 files and prints their paths (never the
 * values); a process whose master key or JWT secret differs, or that has none, refuses to start naming the setting;
 * one given the same values serves the same sessions; `src/rotate-master-key.ts` re-seals everything, after which
 * the data stays usable under the new key and the old key is refused. Two processes started at once on a fresh
 * database never run with different secrets.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { http, loadBody, setUpEmitters, type Emitter } from "./support/cluster.js";
import { runServerToExit, startServer, type ServerProcess } from "./support/server-process.js";

const BASE = process.env.DATABASE_URL;
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const NO_SECRETS = { TIMBRE_MASTER_KEY: "", TIMBRE_JWT_SECRET: "", TIMBRE_MASTER_KEY_NEW: "", TIMBRE_JWT_SECRET_NEW: "" };

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `timbre_secrets_${randomBytes(5).toString("hex")}`;
  const admin = postgres(BASE ?? "", { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(BASE ?? "");
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = postgres(BASE ?? "", { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

async function rotateMasterKey(env: Record<string, string>, args: string[] = []): Promise<{ code: number; output: string }> {
  const child = Bun.spawn([process.execPath, "src/rotate-master-key.ts", ...args], { cwd: SERVER_DIR, env: { ...process.env, ...NO_SECRETS, ...env }, stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  return { code, output: out + err };
}

if (!BASE) {
  describe("secrets across processes [postgres]", () => {
    test.skip("skipped: DATABASE_URL is not set", () => {});
  });
} else {
  describe("secrets across processes [postgres]", () => {
    let db: { url: string; drop(): Promise<void> };
    const dirs: string[] = [];
    const outputs: string[] = [];
    /** Every secret value seen: none may appear in any process's output. */
    const secretValues: string[] = [];
    let first: ServerProcess;
    let emitter: Emitter;
    let token: string;
    const dir = (prefix: string) => {
      const d = mkdtempSync(join(tmpdir(), `timbre-${prefix}-`));
      dirs.push(d);
      return d;
    };
    let dirA: string;
    const envOf = (dataDir: string, secrets: Record<string, string> = {}) => ({ ...NO_SECRETS, DATABASE_URL: db.url, TIMBRE_DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: "100000", ...secrets });
    const read = (path: string) => readFileSync(path, "utf8").trim();

    beforeAll(async () => {
      db = await scratchDatabase();
      dirA = dir("a");
      first = await startServer(envOf(dirA), 90_000);
      outputs.push(first.output());
    }, 120_000);

    afterAll(async () => {
      await first?.stop("SIGKILL");
      await db?.drop();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }, 60_000);

    test("the first process on a fresh database writes both secrets to 0600 files and prints their paths, not the values", async () => {
      const output = first.output();
      for (const file of ["master.key", "jwt.key"]) {
        const path = join(dirA, file);
        expect(statSync(path).mode & 0o777).toBe(0o600);
        expect(output).toContain(`"path":"${path}"`);
        expect(output).not.toContain(read(path));
        secretValues.push(read(path));
      }
      expect(output).toContain("every other process on this database needs the same value");
      const setup = await setUpEmitters(first.url, 1, [33], 50);
      [emitter] = setup.emitters as [Emitter];
      token = setup.token;
      const emitted = await http(first.url, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(33, 1) });
      expect([201, 202]).toContain(emitted.status);
    }, 120_000);

    test("a process with another TIMBRE_MASTER_KEY refuses to start, naming the setting", async () => {
      const wrong = randomBytes(32).toString("base64");
      const run = await runServerToExit(envOf(dir("b"), { TIMBRE_MASTER_KEY: wrong, TIMBRE_JWT_SECRET: read(join(dirA, "jwt.key")) }));
      outputs.push(run.output);
      expect(run.code).not.toBe(0);
      expect(run.output).toContain("TIMBRE_MASTER_KEY does not match the key this database's sealed data was written with");
      expect(run.output).not.toContain(wrong);
      expect(run.output).not.toContain('"msg":"listening"');
    }, 60_000);

    test("a process with another TIMBRE_JWT_SECRET refuses to start, naming the setting", async () => {
      const wrong = randomBytes(32).toString("base64");
      const run = await runServerToExit(envOf(dir("c"), { TIMBRE_MASTER_KEY: read(join(dirA, "master.key")), TIMBRE_JWT_SECRET: wrong }));
      outputs.push(run.output);
      expect(run.code).not.toBe(0);
      expect(run.output).toContain("TIMBRE_JWT_SECRET does not match");
      expect(run.output).not.toContain(wrong);
    }, 60_000);

    test("a process with no secret for a database holding sealed data refuses to start, naming the setting, and generates nothing", async () => {
      const empty = dir("d");
      const run = await runServerToExit(envOf(empty));
      outputs.push(run.output);
      expect(run.code).not.toBe(0);
      expect(run.output).toContain("TIMBRE_MASTER_KEY is not set, and this database already holds data sealed with a master key");
      expect(Bun.file(join(empty, "master.key")).size).toBe(0);
    }, 60_000);

    test("a process given the same values starts, accepts the first one's sessions and emits", async () => {
      const second = await startServer(envOf(dir("e"), { TIMBRE_MASTER_KEY: read(join(dirA, "master.key")), TIMBRE_JWT_SECRET: read(join(dirA, "jwt.key")) }), 90_000);
      try {
        expect((await http(second.url, "GET", "/v1/auth/me", { token })).status).toBe(200);
        const emitted = await http(second.url, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(33, 2) });
        expect([201, 202]).toContain(emitted.status);
      } finally {
        await second.stop();
        outputs.push(second.output());
      }
    }, 120_000);

    test("master-key rotation: refused while a server runs; then every sealed value stays readable under the new key and the old key is refused", async () => {
      const replayBody = loadBody(33, 3);
      const before = await http(first.url, "POST", "/v1/dte/emit", { key: emitter.key, body: replayBody, headers: { "idempotency-key": "before-rotation" } });
      expect([201, 202]).toContain(before.status);

      const busy = await rotateMasterKey(envOf(dirA));
      outputs.push(busy.output);
      expect(busy.code).not.toBe(0);
      expect(busy.output).toContain("server process(es) are running on this database");

      expect(await first.stop()).toBe(0);
      outputs.push(first.output());
      const oldKey = read(join(dirA, "master.key"));
      const rotated = await rotateMasterKey(envOf(dirA));
      outputs.push(rotated.output);
      expect({ code: rotated.code, output: rotated.output }).toEqual({ code: 0, output: expect.stringContaining("re-sealed") });
      expect(rotated.output).toContain(`${join(dirA, "master.key")} now holds the new key`);
      const newKey = read(join(dirA, "master.key"));
      secretValues.push(newKey);
      expect(newKey).not.toBe(oldKey);
      expect(statSync(join(dirA, "master.key")).mode & 0o777).toBe(0o600);

      const stale = await runServerToExit(envOf(dir("f"), { TIMBRE_MASTER_KEY: oldKey, TIMBRE_JWT_SECRET: read(join(dirA, "jwt.key")) }));
      outputs.push(stale.output);
      expect(stale.code).not.toBe(0);
      expect(stale.output).toContain("TIMBRE_MASTER_KEY does not match");

      first = await startServer(envOf(dirA), 90_000);
      // The stored idempotent answer, the certificate's key, the CAF and the sandbox authority all open.
      const replay = await http(first.url, "POST", "/v1/dte/emit", { key: emitter.key, body: replayBody, headers: { "idempotency-key": "before-rotation" } });
      expect(replay.status).toBe(before.status);
      expect(replay.json.data.id).toBe(before.json.data.id);
      const after = await http(first.url, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(33, 4) });
      expect([201, 202]).toContain(after.status);
      const hook = await http(first.url, "POST", `/v1/businesses/${emitter.businessId}/webhook-secret`, { key: emitter.key });
      expect(hook.status).toBe(200);
      await first.stop();
      outputs.push(first.output());
    }, 240_000);

    test("the JWT secret can be replaced too (--jwt-only): the old one is then refused, and so are its sessions", async () => {
      const oldJwt = read(join(dirA, "jwt.key"));
      const newJwt = randomBytes(32).toString("base64");
      secretValues.push(newJwt);
      const replaced = await rotateMasterKey(envOf(dirA, { TIMBRE_JWT_SECRET_NEW: newJwt }), ["--jwt-only"]);
      outputs.push(replaced.output);
      expect({ code: replaced.code, output: replaced.output }).toEqual({ code: 0, output: expect.stringContaining("TIMBRE_JWT_SECRET's check value replaced") });
      const stale = await runServerToExit(envOf(dirA, { TIMBRE_JWT_SECRET: oldJwt }));
      outputs.push(stale.output);
      expect(stale.code).not.toBe(0);
      expect(stale.output).toContain("TIMBRE_JWT_SECRET does not match");
      first = await startServer(envOf(dirA, { TIMBRE_JWT_SECRET: newJwt }), 90_000);
      expect((await http(first.url, "GET", "/v1/auth/me", { token })).status).toBe(401);
      expect((await http(first.url, "GET", "/v1/businesses", { key: emitter.key })).status).toBe(200);
      outputs.push(first.output());
    }, 180_000);

    test("no secret value appears in any process's output", () => {
      expect(secretValues.length).toBeGreaterThanOrEqual(3);
      for (const output of outputs) for (const value of secretValues) expect(output).not.toContain(value);
    });
  });

  describe("two processes started at once on a fresh database [postgres]", () => {
    test("exactly one runs; the other refuses naming TIMBRE_MASTER_KEY and keeps no generated file", async () => {
      const db = await scratchDatabase();
      const dirs = [mkdtempSync(join(tmpdir(), "timbre-race-a-")), mkdtempSync(join(tmpdir(), "timbre-race-b-"))];
      try {
        const results = await Promise.allSettled(dirs.map((d) => startServer({ ...NO_SECRETS, DATABASE_URL: db.url, TIMBRE_DATA_DIR: d }, 90_000)));
        const running = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
        const refused = results.flatMap((r, i) => (r.status === "rejected" ? [{ reason: String(r.reason), dir: dirs[i] ?? "" }] : []));
        try {
          expect(running).toHaveLength(1);
          expect(refused).toHaveLength(1);
          expect(refused[0]?.reason).toMatch(/TIMBRE_MASTER_KEY: another process started on this database at the same moment|TIMBRE_MASTER_KEY is not set/);
          expect(Bun.file(join(refused[0]?.dir ?? "", "master.key")).size).toBe(0);
        } finally {
          await Promise.all(running.map((s) => s.stop()));
        }
      } finally {
        await db.drop();
        for (const d of dirs) rmSync(d, { recursive: true, force: true });
      }
    }, 180_000);
  });
}

describe("master-key rotation of an embedded data directory", () => {
  test("refused while the server runs; afterwards master.key holds the new key and the first run's account still emits", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "timbre-embedded-rotate-"));
    const env = { ...NO_SECRETS, TIMBRE_DATA_DIR: dataDir, DATABASE_URL: "" };
    let server = await startServer(env, 90_000);
    try {
      for (let i = 0; i < 200 && !/sk_test_[0-9A-Za-z]{32}/.test(server.output()); i++) await Bun.sleep(50);
      const key = /sk_test_[0-9A-Za-z]{32}/.exec(server.output())?.[0] ?? "";
      expect(key).not.toBe("");
      const busy = await rotateMasterKey(env);
      expect(busy.code).not.toBe(0);
      expect(busy.output).toContain("in use by process");
      expect(await server.stop()).toBe(0);

      const oldKey = readFileSync(join(dataDir, "master.key"), "utf8").trim();
      const rotated = await rotateMasterKey(env);
      expect({ code: rotated.code, output: rotated.output }).toEqual({ code: 0, output: expect.stringContaining(`${join(dataDir, "master.key")} now holds the new key`) });
      const newKey = readFileSync(join(dataDir, "master.key"), "utf8").trim();
      expect(newKey).not.toBe(oldKey);
      expect(statSync(join(dataDir, "master.key")).mode & 0o777).toBe(0o600);
      for (const value of [oldKey, newKey]) expect(rotated.output).not.toContain(value);

      server = await startServer(env, 90_000);
      const emitted = await http(server.url, "POST", "/v1/dte/emit", { key, body: loadBody(33, 1) });
      expect([201, 202]).toContain(emitted.status);
      for (const value of [oldKey, newKey]) expect(server.output()).not.toContain(value);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
