/**
 * One fresh database per test file: PGlite in memory always, and a uniquely named PostgreSQL database when
 * DATABASE_URL is set (dropped at the end). `describeDrivers` runs a suite on each available driver.
 */
import { describe, test } from "bun:test";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { buildApp, createDeps } from "../../src/app.js";
import { loadConfig, type Env } from "../../src/config.js";
import { openDatabase, pgliteTemplate, type Database } from "../../src/db/open-database.js";
import type { Deps } from "../../src/deps.js";
import { createLogger } from "../../src/log.js";

export type Driver = "pglite" | "postgres";

export const TEST_MASTER_KEY = randomBytes(32).toString("base64");
export const TEST_JWT_SECRET = randomBytes(32).toString("base64");

export interface Harness {
  driver: Driver;
  deps: Deps;
  database: Database;
  app: ReturnType<typeof buildApp>;
  /** Every log line written by this app. */
  logs: string[];
  /** Every response body text seen through `call`. */
  bodies: string[];
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text or bytes (sent as is). */
  raw?: string | Uint8Array | FormData;
  headers?: Record<string, string>;
  key?: string;
  token?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary response fields
  json: any;
  text: string;
}

/** One migrated PGlite dump per test process; every harness starts from a copy of it. */
let migratedTemplate: Promise<Blob> | null = null;

/**
 * Builds the migrated PGlite dump now (initdb in WebAssembly plus every migration: 4–7 s on a 2-vCPU machine).
 * `test/support/preload.ts` calls it before the first test file, so that cost never lands inside one file's
 * `beforeAll`, whose 5-second limit it can exceed.
 */
export function warmPgliteTemplate(): Promise<Blob> {
  return (migratedTemplate ??= pgliteTemplate());
}

/**
 * `now`: the server's clock (default the real one); the sandbox SII keeps the real clock. `sandboxOnThisThread`
 * (default true): the in-process sandbox runs on the test's thread as `gateway.sandbox`, for tests that program its
 * faults or read what it received; false runs it on its own thread, as `npm start` does.
 */
export async function createHarness(driver: Driver, env: Env = {}, options: { now?: () => Date; sandboxOnThisThread?: boolean } = {}): Promise<Harness> {
  const config = loadConfig({
    RATE_LIMIT_PER_MINUTE: "100000",
    WEBHOOK_ALLOW_PRIVATE: "false",
    TIMBRE_MASTER_KEY: TEST_MASTER_KEY,
    TIMBRE_JWT_SECRET: TEST_JWT_SECRET,
    TIMBRE_DATA_DIR: "/nonexistent-timbre-test",
    ...env,
  });
  const scratch = driver === "postgres" ? await createScratchDatabase() : null;
  const template = scratch ? undefined : await warmPgliteTemplate();
  const database = await openDatabase({ databaseUrl: scratch?.url ?? null, prepare: config.databasePrepare, dataDir: config.dataDir, memory: true, template });
  const logs: string[] = [];
  const bodies: string[] = [];
  const log = createLogger("debug", (line) => logs.push(line));
  const deps = createDeps({ config, database, secrets: { masterKey: Buffer.from(TEST_MASTER_KEY, "base64"), jwtSecret: new TextEncoder().encode(TEST_JWT_SECRET) }, log, sandboxOnThisThread: options.sandboxOnThisThread ?? true, ...(options.now ? { now: options.now } : {}) });
  const app = buildApp(deps, database);
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers["x-api-key"] = options.key;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.raw !== undefined) body = options.raw as BodyInit;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await response.text();
    bodies.push(text);
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: response.status, headers: response.headers, json, text };
  };
  return {
    driver,
    deps,
    database,
    app,
    logs,
    bodies,
    call,
    close: async () => {
      await deps.close();
      await database.close();
      await scratch?.drop();
    },
  };
}

async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set");
  const name = `timbre_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = postgres(base, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

export const drivers: Driver[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/** Runs `suite` once per available driver; says so when PostgreSQL is skipped. */
export function describeDrivers(name: string, suite: (driver: Driver) => void): void {
  for (const driver of drivers) describe(`${name} [${driver}]`, () => suite(driver));
  if (!process.env.DATABASE_URL) {
    describe(`${name} [postgres]`, () => {
      test.skip("skipped: DATABASE_URL is not set", () => {});
    });
  }
}
