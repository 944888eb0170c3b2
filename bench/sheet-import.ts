/**
 * A month of boletas from a spreadsheet, as `timbre dte batch --file ventas.csv` does it: `DATABASE_URL=postgres://…
 * bun bench/sheet-import.ts [--documents 2000]`. One server process on a scratch PostgreSQL database with the sandbox
 * SII on loopback; a CSV of N boletas of two lines each (`;`, Windows-1252, Chilean numbers) is read with
 * `@timbre/sdk/csv`, checked with `dte.batchPreviewAll` (no folio) and emitted with `dte.batchAll` (chunks of 500, each
 * document keyed by its content); then the same sheet is sent again, which must answer every document as emitted
 * before and take no folio, and once more with one document changed, which must emit that one alone. Prints the time
 * of each step and documents per second. Loopback only, stops by itself.
 */
import { Timbre } from "@timbre/sdk";
import { readEmissionSheet } from "@timbre/sdk/csv";
import { setUpEmitters, startCluster } from "../apps/server/tests/support/cluster.js";
import { arg, machine } from "./machine.js";

const BASE = process.env.DATABASE_URL;
if (!BASE) throw new Error("DATABASE_URL (PostgreSQL) is required");
const N = Number(arg("documents", "2000"));

console.log(machine());
console.log(`command: DATABASE_URL=… bun bench/sheet-import.ts --documents ${N}`);

const rows = ["tipo;rut;razon_social;nombre;cantidad;precio;precios_brutos"];
for (let i = 0; i < N; i++) {
  rows.push(`39;66666666-6;Consumidor final;Café de Ñuñoa ${i};2,5;12.990;sí`);
  rows.push(`;;;Despacho;1;${1000 + (i % 500)};`);
}
const bytes = Buffer.from(`${rows.join("\r\n")}\r\n`, "latin1");

const cluster = await startCluster({ servers: 1, baseUrl: BASE, env: { RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "info" }, sandboxArgs: ["--xsd", "off"] });
try {
  const base = cluster.servers[0]?.url ?? "";
  const { emitters } = await setUpEmitters(base, 1, [39], N + 10);
  const client = new Timbre({ baseUrl: `${base}/v1`, apiKey: emitters[0]?.key ?? "", timeout: 300_000 });
  const step = async <T>(label: string, work: () => Promise<T> | T): Promise<T> => {
    const started = performance.now();
    const result = await work();
    const s = (performance.now() - started) / 1000;
    console.log(`| ${label} | ${s.toFixed(2)} s | ${Math.round(N / s)} documents/s |`);
    return result;
  };
  console.log(`\n${N} boletas, ${2 * N} rows, ${(bytes.length / 1024).toFixed(0)} KiB\n`);
  console.log("| Step | time | rate |");
  console.log("|---|---:|---:|");
  const sheet = await step("read the CSV (readEmissionSheet)", () => readEmissionSheet(bytes));
  if (sheet.problems.length > 0 || sheet.documents.length !== N) throw new Error(`sheet: ${JSON.stringify(sheet.problems.slice(0, 3))}`);
  const documents = sheet.documents.map((d) => d.params);
  const checked = await step("check (batchPreviewAll)", () => client.dte.batchPreviewAll(documents, { contentKeys: true }));
  if (!checked.results.every((r) => r.success)) throw new Error("check refused a document");
  const emitted = await step("emit (batchAll)", () => client.dte.batchAll(documents, { contentKeys: true }));
  const ok = emitted.results.filter((r) => r.success);
  if (ok.length !== N) throw new Error(`emitted ${ok.length} of ${N}: ${JSON.stringify(emitted.results.find((r) => !r.success)?.error)}`);
  const again = await step("the same sheet again (every document emitted before)", () => client.dte.batchAll(documents, { contentKeys: true }));
  const sameIds = again.results.every((r, i) => r.replayed && r.data?.id === emitted.results[i]?.data?.id);
  const edited = documents.map((d, i) => (i === N - 1 ? { ...d, observaciones: "corregida" } : d));
  const fixed = await step("the sheet with one document changed", () => client.dte.batchAll(edited, { contentKeys: true }));
  const [{ n }] = (await cluster.sql`select count(*)::int as n from documents`) as unknown as [{ n: number }];
  console.log(`\nfolios: ${new Set(ok.map((r) => r.data?.folio)).size} distinct of ${N}; second run same documents, all replayed: ${sameIds}; ` +
    `changed sheet: ${fixed.replayed} replayed, ${fixed.results.filter((r) => r.success && !r.replayed).length} emitted; documents stored: ${n}`);
} finally {
  await cluster.close();
}
