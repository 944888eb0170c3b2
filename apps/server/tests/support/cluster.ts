/**
 * A loopback "cluster" for multi-process tests and benchmarks: a scratch PostgreSQL database (migrated, with the
 * sandbox CAF authority stored in `settings`), an external SII sandbox process that trusts that authority
 * (`serve.ts --trust-pem`), and any number of `bun src/main.ts` server processes on it — each of which can be
 * killed with SIGKILL and restarted.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { generateTestCertificate } from "@timbre/core/testing";
import { openDatabase } from "../../src/db/open-database.js";
import { loadSandboxAuthority } from "../../src/sii/sandbox-authority.js";
import { WITH_RUNTIME, bunFlagsFrom, startServer, type ServerProcess } from "./server-process.js";

const SERVE = fileURLToPath(new URL("../../../../packages/sii/src/sandbox/serve.ts", import.meta.url));

export interface SandboxProcess {
  url: string;
  pid: number;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export interface Cluster {
  databaseUrl: string;
  sandbox: SandboxProcess;
  servers: ServerProcess[];
  env: Record<string, string>;
  /** SIGKILLs server `i` (no graceful stop, in-flight requests die with it). */
  kill(i: number): Promise<void>;
  /** Starts server `i` again (a new process, new port). */
  restart(i: number): Promise<ServerProcess>;
  /** Stops and starts the sandbox process (same port). */
  restartSandbox(): Promise<void>;
  sql: postgres.Sql;
  close(): Promise<void>;
}

/** Extra `bun` flags for the sandbox process (benchmarks: a CPU profile, say). */
const sandboxFlags = bunFlagsFrom("TIMBRE_SANDBOX_BUN_FLAGS");

export async function startSandboxProcess(args: string[], port = 0): Promise<SandboxProcess> {
  const child = Bun.spawn(["sh", WITH_RUNTIME, process.execPath, ...sandboxFlags, SERVE, "--port", String(port), ...args], { stdout: "pipe", stderr: "pipe" });
  const reader = child.stdout.getReader();
  let out = "";
  const deadline = Date.now() + 30_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /SII sandbox on (http:\/\/[\d.]+:\d+)/.exec(out))) {
    if (Date.now() > deadline) throw new Error(`sandbox did not start: ${out}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`sandbox exited: ${out}${await new Response(child.stderr).text()}`);
    out += new TextDecoder().decode(value);
  }
  // Keep draining its output so it never blocks on a full pipe.
  void (async () => {
    for (;;) if ((await reader.read()).done) break;
  })();
  return {
    url: match[1] ?? "",
    pid: child.pid,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return child.exited;
    },
  };
}

export async function startCluster(options: { servers: number; baseUrl: string; env?: Record<string, string>; sandboxArgs?: string[] }): Promise<Cluster> {
  const name = `timbre_cluster_${randomBytes(5).toString("hex")}`;
  const admin = postgres(options.baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(options.baseUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const masterKey = randomBytes(32);
  // Migrate and store the sandbox authority once, so that the sandbox process can be told to trust it.
  const database = await openDatabase({ databaseUrl, dataDir: "/nonexistent-timbre-cluster" });
  const authority = await loadSandboxAuthority(database.db, masterKey);
  await database.close();
  const dir = mkdtempSync(join(tmpdir(), "timbre-cluster-"));
  const pem = join(dir, "authority.pem");
  writeFileSync(pem, authority.publicKey.export({ type: "spki", format: "pem" }).toString());
  const sandboxArgs = ["--trust-pem", pem, "--step-ms", "200", ...(options.sandboxArgs ?? [])];
  let sandbox = await startSandboxProcess(sandboxArgs);
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    SII_MODE: "sandbox",
    SII_SANDBOX_URL: sandbox.url,
    TIMBRE_MASTER_KEY: masterKey.toString("base64"),
    TIMBRE_JWT_SECRET: randomBytes(32).toString("base64"),
    TIMBRE_DATA_DIR: dir,
    RATE_LIMIT_PER_MINUTE: "1000000",
    WEBHOOK_ALLOW_PRIVATE: "true",
    LOG_LEVEL: "info",
    ...options.env,
  };
  const dropDatabase = async () => {
    const again = postgres(options.baseUrl, { max: 1, onnotice: () => {} });
    await again.unsafe(`drop database if exists ${name} with (force)`);
    await again.end();
    rmSync(dir, { recursive: true, force: true });
  };
  const started = await Promise.allSettled(Array.from({ length: options.servers }, () => startServer(env, 90_000)));
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    // Leave nothing behind: no server, no sandbox process, no scratch database.
    await Promise.all(servers.map((s) => s.stop("SIGKILL")));
    await sandbox.stop();
    await dropDatabase();
    throw failed.reason;
  }
  // int8 as numbers, as the server reads them (folios are bigint): exact below 2^53.
  const int8 = { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) };
  const sql = postgres(databaseUrl, { max: 4, onnotice: () => {}, types: { int8 } });
  return {
    databaseUrl,
    get sandbox() {
      return sandbox;
    },
    servers,
    env,
    sql,
    async kill(i) {
      await servers[i]?.stop("SIGKILL");
    },
    async restart(i) {
      const server = await startServer(env, 90_000);
      servers[i] = server;
      return server;
    },
    async restartSandbox() {
      const port = new URL(sandbox.url).port;
      await sandbox.stop();
      sandbox = await startSandboxProcess(sandboxArgs, Number(port));
    },
    async close() {
      // Graceful first (a profiled server writes its profile on exit), SIGKILL after 5 s.
      await Promise.all(
        servers.map(async (s) => {
          const timer = setTimeout(() => void s.stop("SIGKILL"), 5_000);
          await s.stop("SIGTERM");
          clearTimeout(timer);
        }),
      );
      await sandbox.stop();
      await sql.end();
      await dropDatabase();
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON
export type Json = any;

/** One HTTP call; network errors come back as status 0. */
export async function http(base: string, method: string, path: string, options: { body?: unknown; key?: string; token?: string; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ status: number; json: Json; ms: number }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers["x-api-key"] = options.key;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const started = performance.now();
  try {
    const res = await fetch(base + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal: AbortSignal.timeout(options.timeoutMs ?? 60_000) });
    const text = await res.text();
    let json: Json = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, json: { error: String(error) }, ms: performance.now() - started };
  }
}

const RUTS = ["76192083-9", "60803000-K", "96790240-3", "77777777-7", "11111111-1", "22222222-2", "33333333-3", "44444444-4", "55555555-5", "99999999-9"];

export interface Emitter {
  businessId: string;
  key: string;
  rut: string;
}

/** One user with `count` businesses, each with a certificate, sandbox CAFs of `tipos` and a key. */
export async function setUpEmitters(base: string, count: number, tipos: number[], cantidad: number): Promise<{ token: string; emitters: Emitter[] }> {
  const email = `load_${randomBytes(4).toString("hex")}@example.com`;
  const reg = await http(base, "POST", "/v1/auth/register", { body: { email, password: "0123456789ab", nombre: "Load" } });
  if (reg.status !== 201) throw new Error(`register: ${JSON.stringify(reg.json)}`);
  const token = reg.json.data.access_token as string;
  const cert = await generateTestCertificate({ rut: "11111111-1", name: "ANA PEREZ", password: "clave", validFrom: new Date(Date.now() - 86_400_000), validTo: new Date(Date.now() + 365 * 86_400_000) });
  const pfx = Buffer.from(cert.p12).toString("base64");
  const emitters: Emitter[] = [];
  for (let i = 0; i < count; i++) {
    const rut = RUTS[i % RUTS.length] ?? "76192083-9";
    const biz = await http(base, "POST", "/v1/businesses", { token, body: { rut, razon_social: `Empresa ${i} SpA`, giro: "Software", acteco: [620200], direccion: "Av. Uno 1", comuna: "Santiago" } });
    if (biz.status !== 201) throw new Error(`business: ${JSON.stringify(biz.json)}`);
    const businessId = biz.json.data.id as string;
    const key = await http(base, "POST", "/v1/tokens", { token, body: { name: "load", permissions: ["*"], business_id: businessId } });
    const apiKey = key.json.data.key as string;
    const up = await http(base, "POST", `/v1/businesses/${businessId}/certificate`, { key: apiKey, body: { pfx_base64: pfx, password: "clave" } });
    if (up.status !== 200) throw new Error(`certificate: ${JSON.stringify(up.json)}`);
    for (const tipo of tipos) {
      const caf = await http(base, "POST", "/v1/sandbox/numerations", { key: apiKey, body: { tipo, cantidad } });
      if (caf.status !== 201) throw new Error(`CAF: ${JSON.stringify(caf.json)}`);
    }
    emitters.push({ businessId, key: apiKey, rut });
  }
  return { token, emitters };
}

/** A small valid emission body. */
export function loadBody(tipo: number, i: number): Record<string, unknown> {
  const receipt = tipo === 39 || tipo === 41;
  return {
    tipo,
    receptor: receipt ? { rut: "66666666-6", razon_social: "Consumidor final" } : { rut: "60803000-K", razon_social: "Cliente Ltda", giro: "Comercio", direccion: "Calle 1", comuna: "Santiago" },
    items: [{ nombre: `Item ${i}`, cantidad: 1 + (i % 3), precio: 1000 + i }],
    ...(receipt ? { precios_brutos: true } : {}),
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
