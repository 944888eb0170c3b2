/**
 * Two real server processes on one PostgreSQL: the rate limit is one limit across both, and a key revoked
 * through one is refused by the other at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { startServer, type ServerProcess } from "./support/server-process.js";

const BASE = process.env.DATABASE_URL;
/** Key material seen in responses, checked against both processes' logs at the end. */
const secretsSeen: string[] = [];
const LIMIT = 6;
/** Every process of a deployment shares the secrets. */
const randomBytesOnce = { master: randomBytes(32).toString("base64"), jwt: randomBytes(32).toString("base64") };

async function call(server: ServerProcess, method: string, path: string, options: { body?: unknown; key?: string; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.key) headers["x-api-key"] = options.key;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(server.url + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

if (!BASE) {
  describe("multi-process [postgres]", () => {
    test.skip("skipped: DATABASE_URL is not set", () => {});
  });
} else {
  describe("multi-process [postgres]", () => {
    const name = `timbre_mp_${randomBytes(5).toString("hex")}`;
    const dirs: string[] = [];
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      const admin = postgres(BASE, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      await admin.end();
      const url = new URL(BASE);
      url.pathname = `/${name}`;
      const env = (dir: string) => ({
        DATABASE_URL: url.toString(),
        TIMBRE_DATA_DIR: dir,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        TIMBRE_MASTER_KEY: randomBytesOnce.master,
        TIMBRE_JWT_SECRET: randomBytesOnce.jwt,
      });
      dirs.push(mkdtempSync(join(tmpdir(), "timbre-a-")), mkdtempSync(join(tmpdir(), "timbre-b-")));
      [a, b] = await Promise.all([startServer(env(dirs[0] ?? "")), startServer(env(dirs[1] ?? ""))]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      const admin = postgres(BASE, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    test("the two processes are distinct and both healthy", async () => {
      expect(a.pid).not.toBe(b.pid);
      expect((await call(a, "GET", "/v1/health")).status).toBe(200);
      expect((await call(b, "GET", "/v1/health")).status).toBe(200);
    });

    test("the rate limit is shared: requests alternate between processes, the limit holds for the sum", async () => {
      const reg = await call(a, "POST", "/v1/auth/register", { body: { email: "mp@example.com", password: "0123456789!", nombre: "MP" } });
      expect(reg.status).toBe(201);
      const token = reg.json.data.access_token as string;
      const biz = await call(b, "POST", "/v1/businesses", { token, body: { rut: "76192083-9", razon_social: "X", giro: "g", acteco: [620200], direccion: "d", comuna: "c" } });
      expect(biz.status).toBe(201);
      const key = await call(a, "POST", "/v1/tokens", { token, body: { name: "k", permissions: ["*"], business_id: biz.json.data.id } });
      expect(key.status).toBe(201);
      secretsSeen.push(key.json.data.key, token, reg.json.data.refresh_token);
      const statuses: number[] = [];
      const remaining: string[] = [];
      for (let i = 0; i < LIMIT + 2; i++) {
        const res = await call(i % 2 === 0 ? a : b, "GET", "/v1/auth/me", { key: key.json.data.key });
        statuses.push(res.status);
        remaining.push(res.headers.get("ratelimit")?.match(/r=(\d+)/)?.[1] ?? "");
      }
      expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
      expect(remaining.slice(0, LIMIT)).toEqual(Array.from({ length: LIMIT }, (_, i) => String(LIMIT - 1 - i)));
    });

    test("a key revoked through one process is refused by the other at once", async () => {
      const login = await call(b, "POST", "/v1/auth/login", { body: { email: "mp@example.com", password: "0123456789!" } });
      const token = login.json.data.access_token as string;
      const list = await call(b, "GET", "/v1/businesses", { token });
      const created = await call(b, "POST", "/v1/tokens", { token, body: { name: "victim", permissions: ["dte:read"], business_id: list.json.data[0].id } });
      const victim = created.json.data.key as string;
      secretsSeen.push(victim, token);
      expect((await call(b, "GET", "/v1/auth/me", { key: victim })).status).toBe(200);
      expect((await call(a, "DELETE", `/v1/tokens/${created.json.data.id}`, { token })).status).toBe(200);
      expect((await call(b, "GET", "/v1/auth/me", { key: victim })).status).toBe(401);
      expect((await call(a, "GET", "/v1/auth/me", { key: victim })).status).toBe(401);
    });

    test("both processes logged one JSON line per request and no key material", async () => {
      const logs = a.output() + b.output();
      expect(secretsSeen.length).toBeGreaterThan(3);
      for (const secret of [...secretsSeen, "0123456789!", "$argon2", "PRIVATE KEY"]) expect(logs.includes(secret) ? secret : null).toBeNull();
      const requests = logs.split("\n").filter((l) => l.includes('"msg":"request"'));
      expect(requests.length).toBeGreaterThan(10);
      for (const line of requests) expect(Object.keys(JSON.parse(line)).sort()).toEqual(["level", "method", "ms", "msg", "path", "request_id", "status", "time"]);
    });
  });
}
