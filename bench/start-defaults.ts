/**
 * `npm start`'s defaults under load: `DATABASE_URL=postgres://… bun bench/start-defaults.ts [--seconds 20]
 * [--concurrency 32] [--server-dir apps/server] [--database postgres|pglite]`. A scratch PostgreSQL database (or, with
 * `--database pglite`, the embedded one in a scratch data directory) and one server started as `npm start`
 * starts it (`scripts/with-runtime.sh bun src/main.ts`, every setting default: the in-process sandbox SII, its XSD
 * and signature checks on) but for the rate limit, raised so the load is not refused; one business emitting
 * facturas and boletas with `--concurrency` clients for `--seconds`, while `/health` is asked every 50 ms.
 * Prints emissions/s, their p50/p99, `/health`'s p50/p99 during the load and the server's peak RSS; and the raw
 * RSA-2048/SHA-1 signing rate of Bun (this process) beside Node's OpenSSL, the machine's real limit.
 * `--server-dir` runs another checkout's server (a same-run A/B against main). Stops by itself; loopback only.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import postgres from "postgres";
import { http, loadBody, percentile, setUpEmitters } from "../apps/server/tests/support/cluster.js";
import { arg, machine } from "./machine.js";
import { rssMb } from "./proc-cpu.js";

const PGLITE = arg("database", "postgres") === "pglite";
const BASE = process.env.DATABASE_URL ?? "";
if (!BASE && !PGLITE) throw new Error("DATABASE_URL (PostgreSQL) is required, or --database pglite");
const SECONDS = Number(arg("seconds", "20"));
const CONCURRENCY = Number(arg("concurrency", "32"));
const SERVER_DIR = resolve(arg("server-dir", new URL("../apps/server", import.meta.url).pathname));

/** RSA-2048/SHA-1 signatures per second over 1 KB, in whichever runtime runs this text. */
const RAW_SIGNING = `const { generateKeyPairSync, randomBytes, sign } = require("node:crypto");
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const payload = randomBytes(1024);
for (let i = 0; i < 50; i++) sign("sha1", payload, privateKey);
let n = 0; const start = performance.now();
while (performance.now() - start < 3000) { sign("sha1", payload, privateKey); n++; }
console.log(Math.round((n * 1000) / (performance.now() - start)));`;
const rawRate = (runtime: string) => Number(execFileSync(runtime, ["-e", RAW_SIGNING]).toString().trim());

const f = (n: number) => n.toFixed(1);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

console.log(machine());
console.log(`command: DATABASE_URL=… bun bench/start-defaults.ts --seconds ${SECONDS} --concurrency ${CONCURRENCY} --server-dir ${SERVER_DIR} --database ${PGLITE ? "pglite" : "postgres"}`);
console.log(`raw RSA-2048/SHA-1 over 1 KB: Bun ${rawRate(process.execPath)} sig/s, Node (OpenSSL) ${rawRate("node")} sig/s`);

const name = `timbre_start_${randomBytes(5).toString("hex")}`;
const admin = PGLITE ? null : postgres(BASE, { max: 1, onnotice: () => {} });
await admin?.unsafe(`create database ${name}`);
const url = PGLITE ? null : new URL(BASE);
if (url) url.pathname = `/${name}`;
const dataDir = execFileSync("mktemp", ["-d"]).toString().trim();
const child = Bun.spawn(["sh", resolve(SERVER_DIR, "../../scripts/with-runtime.sh"), process.execPath, "src/main.ts"], {
  cwd: SERVER_DIR,
  env: { ...process.env, PORT: "0", DATABASE_URL: url?.toString() ?? "", TIMBRE_DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "warn" },
  stdout: "pipe",
  stderr: "pipe",
});
try {
  let text = "";
  void (async () => {
    for await (const chunk of child.stdout as unknown as AsyncIterable<Uint8Array>) text += new TextDecoder().decode(chunk);
  })();
  let port: number | null = null;
  for (let i = 0; i < 1200 && port === null; i++) {
    const match = /localhost:(\d+)|127\.0\.0\.1:(\d+)/.exec(text);
    if (match) port = Number(match[1] ?? match[2]);
    else await Bun.sleep(50);
  }
  if (port === null) throw new Error(`server did not start: ${text}`);
  const base = `http://127.0.0.1:${port}`;
  const [emitter] = (await setUpEmitters(base, 1, [33, 39], 100_000)).emitters;
  if (!emitter) throw new Error("no emitter");
  let seq = 0;
  const emitOne = () => {
    const i = seq++;
    return http(base, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(i % 2 === 0 ? 33 : 39, i), timeoutMs: 30_000 });
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, emitOne)); // warm-up: SII token, JIT, CAF caches
  const rssIdle = rssMb(child.pid);

  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const health: number[] = [];
  let rssMax = 0;
  let running = true;
  const deadline = performance.now() + SECONDS * 1000;
  const start = performance.now();
  const prober = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${base}/health`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t);
      rssMax = Math.max(rssMax, rssMb(child.pid));
      await Bun.sleep(50);
    }
  })();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const r = await emitOne();
        latencies.push(r.ms);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  running = false;
  await prober;
  const l = sorted(latencies);
  const hl = sorted(health);
  console.log(
    `${latencies.length} emissions in ${f(elapsed)} s: ${f(latencies.length / elapsed)}/s; statuses ${JSON.stringify(Object.fromEntries(statuses))}; ` +
      `p50 / p99 ${f(percentile(l, 50))} / ${f(percentile(l, 99))} ms; /health (${health.length} probes) p50 / p99 / max ${f(percentile(hl, 50))} / ${f(percentile(hl, 99))} / ${f(hl[hl.length - 1] ?? NaN)} ms; ` +
      `server RSS idle ${rssIdle} MB, peak ${rssMax} MB`,
  );
} finally {
  child.kill("SIGTERM");
  await child.exited;
  await admin?.unsafe(`drop database if exists ${name} with (force)`);
  await admin?.end();
  execFileSync("rm", ["-rf", dataDir]);
}
