/**
 * `GET /v1/dte` (and `GET /v1/dte/resumen`) latency with 1,000,000 stored documents of one business: `DATABASE_URL=postgres://… bun
 * bench/list-latency.ts [--rows 1000000] [--requests 200]`. A scratch database (server process,
 * workers off), one real emitted document as the template, then `generate_series` bulk rows (tipos, dates over ~2
 * years, states, 5,000 receivers); then sequential requests per filter set → p50/p95/p99. Migrations 0004 and 0005
 * hold the indexes this benchmark led to (candidates were tried here by hand first). Loopback only, stops by itself.
 */
import { http, loadBody, percentile, setUpEmitters, startCluster } from "../apps/server/tests/support/cluster.js";
import { arg, machine } from "./machine.js";

const BASE = process.env.DATABASE_URL;
if (!BASE) throw new Error("DATABASE_URL (PostgreSQL) is required");
const ROWS = Number(arg("rows", "1000000"));
const REQUESTS = Number(arg("requests", "200"));

console.log(machine());
console.log(`command: DATABASE_URL=… bun bench/list-latency.ts --rows ${ROWS} --requests ${REQUESTS}`);
const cluster = await startCluster({ servers: 1, baseUrl: BASE, env: { TIMBRE_WORKERS: "false", RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "info" }, sandboxArgs: ["--xsd", "off"] });
try {
  const base = cluster.servers[0]?.url ?? "";
  const { emitters } = await setUpEmitters(base, 1, [33], 10);
  const e = emitters[0];
  if (!e) throw new Error("no emitter");
  const first = await http(base, "POST", "/v1/dte/emit", { key: e.key, body: loadBody(33, 1) });
  if (first.status !== 201) throw new Error(`emit: ${JSON.stringify(first.json)}`);
  const started = performance.now();
  await cluster.sql.unsafe(`
    insert into documents (id, business_id, environment, numeration_id, tipo, folio, fecha, fecha_emision, receptor_rut,
      receptor_razon_social, monto_neto, monto_exento, monto_iva, monto_total, estado, track_id, request, computed, xml, ted,
      created_at, updated_at)
    select 'dte_bulk' || lpad(g::text, 22, '0'), t.business_id, t.environment, t.numeration_id,
      (array[33, 39, 34, 61, 33, 39, 33, 56])[1 + g % 8], 1000000 + g,
      to_char(date '2025-01-01' + (g % 690), 'YYYY-MM-DD'), t.fecha_emision - make_interval(secs => ${ROWS} - g),
      case when g % 1000 = 0 then '60803000-K' else (10000000 + g % 5000)::text || '-0' end, 'Cliente ' || (g % 5000),
      1000 + g % 100000, 0, (1000 + g % 100000) * 19 / 100, (1000 + g % 100000) * 119 / 100,
      (array['ACEPTADO','ACEPTADO','ACEPTADO','ACEPTADO','ACEPTADO','ACEPTADO','ACEPTADO','ACEPTADO_CON_REPAROS','RECHAZADO','ENVIADO'])[1 + g % 10],
      (7000000000 + g)::text, '{}'::jsonb, '{}'::jsonb, '\\x3c2f3e'::bytea, '<TED/>',
      t.created_at - make_interval(secs => ${ROWS} - g), t.created_at - make_interval(secs => ${ROWS} - g)
    from generate_series(1, ${ROWS}) g, (select * from documents limit 1) t`);
  // Steady state: autovacuum would have set the visibility map (index-only scans for the counts) by now.
  await cluster.sql.unsafe("vacuum analyze documents");
  console.log(`bulk insert of ${ROWS} rows + vacuum analyze: ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const only = arg("only", "");
  const QUERIES: [string, string][] = ([
    ["no filter, page 1", ""],
    ["tipo=33", "tipo=33"],
    ["desde/hasta one month", "desde=2026-01-01&hasta=2026-01-31"],
    ["estado=RECHAZADO", "estado=RECHAZADO"],
    ["receptor_rut (1 in 1000)", "receptor_rut=60803000-K"],
    ["folio (exact)", "folio=1500000"],
    ["tipo+dates+estado", "tipo=33&desde=2025-06-01&hasta=2025-12-31&estado=ACEPTADO"],
    ["page 500 (offset 9,980)", "page=500"],
  ] as [string, string][]).filter(([name]) => only === "" || name.startsWith(only));
  const measure = async (label: string) => {
    console.log(`\n${label}`);
    console.log("| Query | total | p50 ms | p95 ms | p99 ms |");
    console.log("|---|---:|---:|---:|---:|");
    for (const [name, query] of QUERIES) {
      for (let i = 0; i < 5; i++) await http(base, "GET", `/v1/dte?${query}`, { key: e.key }); // warm
      const ms: number[] = [];
      let total = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const res = await http(base, "GET", `/v1/dte?${query}`, { key: e.key });
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.json)}\nserver output (tail):\n${cluster.servers[0]?.output().slice(-3000)}`);
        total = res.json.pagination.total;
        ms.push(res.ms);
      }
      ms.sort((a, b) => a - b);
      console.log(`| ${name} | ${total} | ${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 95).toFixed(1)} | ${percentile(ms, 99).toFixed(1)} |`);
    }
  };
  await measure("indexes as migrated");

  // GET /dte/resumen: the period's sales by tipo, one aggregate over the (business, environment, fecha) index.
  const SUMMARIES: [string, string][] = [
    ["resumen, one month", "desde=2026-01-01&hasta=2026-01-31"],
    ["resumen, one year", "desde=2025-01-01&hasta=2025-12-31"],
    ["resumen, everything", "desde=2025-01-01&hasta=2026-12-31"],
  ];
  console.log("\n| Summary | documents | p50 ms | p95 ms | p99 ms |");
  console.log("|---|---:|---:|---:|---:|");
  const summaryRequests = Math.max(10, Math.floor(REQUESTS / 4));
  for (const [name, query] of SUMMARIES) {
    for (let i = 0; i < 3; i++) await http(base, "GET", `/v1/dte/resumen?${query}`, { key: e.key }); // warm
    const ms: number[] = [];
    let counted = 0;
    for (let i = 0; i < summaryRequests; i++) {
      const res = await http(base, "GET", `/v1/dte/resumen?${query}`, { key: e.key });
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.json)}`);
      const data = res.json.data as { tipos: Array<{ documentos: number }>; rechazados: number };
      counted = data.tipos.reduce((sum, t) => sum + t.documentos, 0) + data.rechazados;
      ms.push(res.ms);
    }
    ms.sort((a, b) => a - b);
    console.log(`| ${name} | ${counted} | ${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 95).toFixed(1)} | ${percentile(ms, 99).toFixed(1)} |`);
  }
  {
    const count = await cluster.sql.unsafe(`explain analyze select count(*) from documents where business_id = '${e.businessId}' and environment = 'test'`);
    console.log(`\nplan of the unfiltered count (exact totals, API.md §6.9):\n${count.map((r) => Object.values(r)[0]).join("\n")}`);
  }
  const plan = await cluster.sql.unsafe(`explain analyze select * from documents where business_id = '${e.businessId}' and environment = 'test' order by created_at desc, id desc limit 20`);
  console.log(`\nplan of the unfiltered page:\n${plan.map((r) => Object.values(r)[0]).join("\n")}`);
} finally {
  await cluster.close();
}
