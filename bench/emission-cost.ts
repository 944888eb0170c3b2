/**
 * CPU cost of one emission, per process: `DATABASE_URL=postgres://… bun bench/emission-cost.ts [--count 300]
 * [--concurrency 1] [--businesses 2] [--xsd auto|off] [--cross-check on|off] [--reads on]`. Starts the same cluster
 * as `capacity.ts` (one server, a sandbox SII process, a scratch PostgreSQL database), warms up, then emits `--count`
 * documents (tipos 33/39 alternating) and reads the CPU time (`/proc/<pid>/stat` utime + stime; PostgreSQL: every
 * `postgres` process) each side spent until every one of them is final (ACEPTADO): an emission's whole life, the
 * status poller's work included. The answer to "where does an emission's CPU go" without a sampling profiler's
 * wall-clock attribution. Beside it, PostgreSQL's write-ahead log and transactions per emission, which a noisy host
 * does not blur.
 */
import { http, loadBody, setUpEmitters, startCluster, type Emitter } from "../apps/server/tests/support/cluster.js";
import { arg, machine, sandboxArgs, sandboxFlags } from "./machine.js";
import { cpuMs, postgresCpuMs, threadCpuMs } from "./proc-cpu.js";

const BASE = process.env.DATABASE_URL;
if (!BASE) throw new Error("DATABASE_URL (PostgreSQL) is required");
const COUNT = Number(arg("count", "300"));
const CONCURRENCY = Number(arg("concurrency", "1"));
const BUSINESSES = Number(arg("businesses", "2"));
/**
 * PostgreSQL's write-ahead log and transactions so far (`pg_stat_wal`, `pg_stat_database`: the whole server, which
 * nothing else uses during a run but this script's own reads: one every 100 ms while the last documents settle, ≈ 0.01
 * transactions per emission at `--count 3000`). Unlike CPU time, these counts do not move with the host's
 * speed: a change that removes an index entry or a statement shows here in one run.
 */
const walNow = async (sql: import("postgres").Sql) => {
  const [w] = await sql`select wal_records::float8 as records, wal_bytes::float8 as bytes, wal_fpi::float8 as fpi,
    (select sum(xact_commit + xact_rollback)::float8 from pg_stat_database) as xacts from pg_stat_wal`;
  return { records: Number(w?.records), bytes: Number(w?.bytes), fpi: Number(w?.fpi), xacts: Number(w?.xacts) };
};
const own = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

console.log(machine());
console.log(`command: DATABASE_URL=… bun bench/emission-cost.ts --count ${COUNT} --concurrency ${CONCURRENCY} --businesses ${BUSINESSES} ${sandboxFlags()}`);
const cluster = await startCluster({
  servers: 1,
  baseUrl: BASE,
  env: { EMIT_BUDGET_MS: "10000", RATE_LIMIT_PER_MINUTE: "1000000", SII_SANDBOX_STEP_MS: "200" },
  sandboxArgs: sandboxArgs(),
});
try {
  const server = cluster.servers[0];
  if (!server) throw new Error("no server");
  const { emitters } = await setUpEmitters(server.url, BUSINESSES, [33, 39], 100_000);
  let seq = 0;
  const emitOne = async () => {
    const i = seq++;
    const e = emitters[i % emitters.length] as Emitter;
    const res = await http(server.url, "POST", "/v1/dte/emit", { key: e.key, body: loadBody(i % 2 === 0 ? 33 : 39, i), timeoutMs: 30_000 });
    if (res.status !== 201) throw new Error(`emit ${res.status}: ${JSON.stringify(res.json)}`);
  };
  for (let i = 0; i < 40; i++) await emitOne(); // warm-up: tokens, JIT, caches
  await Bun.sleep(3000); // let the poller settle the warm-up documents
  const idle0 = { server: cpuMs(server.pid), sandbox: cpuMs(cluster.sandbox.pid), postgres: postgresCpuMs() };
  await Bun.sleep(5000);
  console.log(
    `idle 5 s: CPU ms per second, server ${(cpuMs(server.pid) - idle0.server) / 5}, sandbox ${(cpuMs(cluster.sandbox.pid) - idle0.sandbox) / 5}, postgres ${(postgresCpuMs() - idle0.postgres) / 5}`,
  );

  const walBefore = await walNow(cluster.sql);
  const before = { server: cpuMs(server.pid), sandbox: cpuMs(cluster.sandbox.pid), postgres: postgresCpuMs(), bench: own() };
  const threadsBefore = threadCpuMs(server.pid);
  const started = performance.now();
  let left = COUNT;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await emitOne();
    }),
  );
  const wall = performance.now() - started;
  // The poller carries the last documents to their final state after the last answer: their cost is the emission's.
  const settleStart = performance.now();
  while (performance.now() - settleStart < 120_000) {
    const [left] = await cluster.sql`select count(*)::int as n from documents where estado in ('PENDIENTE', 'ENVIADO')`;
    if (Number(left?.n ?? 0) === 0) break;
    await Bun.sleep(100);
  }
  const settled = performance.now() - settleStart;
  const [shape] = await cluster.sql`select (select count(*)::int from documents) as documents, (select count(*)::int from envelopes) as envelopes,
    (select coalesce(sum(pg_column_size(xml)), 0)::float8 from documents) as document_xml, (select coalesce(sum(pg_column_size(xml)), 0)::float8 from envelopes) as envelope_xml,
    pg_total_relation_size('documents')::float8 as documents_size, pg_total_relation_size('envelopes')::float8 as envelopes_size`;
  const after = { server: cpuMs(server.pid), sandbox: cpuMs(cluster.sandbox.pid), postgres: postgresCpuMs(), bench: own() };
  const threadsAfter = threadCpuMs(server.pid);
  const walAfter = await walNow(cluster.sql);
  const perEmission = (k: keyof typeof before) => (after[k] - before[k]) / COUNT;
  if (arg("reads", "off") === "on") {
    const e0 = emitters[0] as Emitter;
    const list = await http(server.url, "GET", "/v1/dte?limit=1", { key: e0.key });
    const id = list.json.data[0].id as string;
    const r0 = { server: cpuMs(server.pid), postgres: postgresCpuMs() };
    for (let i = 0; i < COUNT; i++) await http(server.url, "GET", `/v1/dte/${id}`, { key: e0.key });
    console.log(`GET /v1/dte/{id}: CPU ms per request, server ${((cpuMs(server.pid) - r0.server) / COUNT).toFixed(2)}, postgres ${((postgresCpuMs() - r0.postgres) / COUNT).toFixed(2)}`);
    const h0 = { server: cpuMs(server.pid) };
    for (let i = 0; i < COUNT; i++) await http(server.url, "GET", `/v1/health`);
    console.log(`GET /v1/health: CPU ms per request, server ${((cpuMs(server.pid) - h0.server) / COUNT).toFixed(2)}`);
  }
  const rows = (["server", "sandbox", "postgres", "bench"] as const).map((k) => [k, perEmission(k)] as const);
  const total = rows.reduce((s, [, v]) => s + v, 0);
  console.log(`${COUNT} emissions answered in ${(wall / 1000).toFixed(2)} s (${((COUNT * 1000) / wall).toFixed(1)}/s), all final ${(settled / 1000).toFixed(2)} s later; ${shape?.documents} documents in ${shape?.envelopes} envelopes (warm-up included)`);
  for (const [k, v] of rows) console.log(`  CPU ms per emission, ${k.padEnd(8)} ${v.toFixed(2)}`);
  const threads = [...threadsAfter].map(([name, ms]) => [name, (ms - (threadsBefore.get(name) ?? 0)) / COUNT] as const).filter(([, v]) => v >= 0.005);
  console.log(`    server by thread: ${threads.sort((a, b) => b[1] - a[1]).map(([name, v]) => `${name} ${v.toFixed(2)}`).join(", ")}`);
  console.log(`  CPU ms per emission, total    ${total.toFixed(2)} → at most ${((2 * 1000) / total).toFixed(0)}/s on 2 cores`);
  console.log(
    `  PostgreSQL's write-ahead log per emission: ${((walAfter.bytes - walBefore.bytes) / COUNT / 1024).toFixed(2)} KiB in ${((walAfter.records - walBefore.records) / COUNT).toFixed(1)} records (${((walAfter.fpi - walBefore.fpi) / COUNT).toFixed(2)} full-page images), ${((walAfter.xacts - walBefore.xacts) / COUNT).toFixed(2)} transactions (statements outside one included)`,
  );
  console.log("  (measured until every document is final: the status poller's ACEPTADO checks are part of the cost; so is its idle polling)");
  const perDocument = (bytes: unknown) => `${(Number(bytes) / Number(shape?.documents ?? 1) / 1024).toFixed(2)} KiB`;
  console.log(
    `  stored per document: signed XML ${perDocument(shape?.document_xml)} in documents + ${perDocument(shape?.envelope_xml)} in envelopes (as stored, compressed); ` +
      `tables with indexes and TOAST: documents ${perDocument(shape?.documents_size)}, envelopes ${perDocument(shape?.envelopes_size)}`,
  );
} finally {
  await cluster.close();
}
