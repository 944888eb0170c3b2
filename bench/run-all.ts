/**
 * Every benchmark in sequence (`npm run bench` here, or `bun bench/run-all.ts` from the repository root). The
 * PostgreSQL ones need DATABASE_URL and say so when skipped. Each prints the machine line, its command and its
 * figures; copy them into RESULTS.md.
 */
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const server = fileURLToPath(new URL("../apps/server/", import.meta.url));
const pg = Boolean(process.env.DATABASE_URL);

const steps: { name: string; cmd: string[]; cwd: string; env?: Record<string, string>; needsPg?: boolean }[] = [
  { name: "hostile inputs", cmd: ["hostile-inputs.ts"], cwd: here },
  { name: "fuzz ×10", cmd: ["test", "tests/fuzz-input.test.ts"], cwd: server, env: { FUZZ_SCALE: "10" } },
  { name: "folio integrity, 3000 emissions", cmd: ["test", "tests/folio-integrity.test.ts"], cwd: server, env: { FOLIO_LOAD: "3000", FOLIO_CONCURRENCY: "100" }, needsPg: true },
  { name: "capacity", cmd: ["capacity.ts", "--seconds", "30", "--concurrency", "32"], cwd: here, needsPg: true },
  { name: "CPU cost per emission", cmd: ["emission-cost.ts", "--count", "300", "--xsd", "off", "--reads", "on"], cwd: here, needsPg: true },
  { name: "webhook delivery, 5000 events", cmd: ["webhook-delivery.ts", "--events", "5000", "--slow-ms", "10000", "--slow-events", "3000"], cwd: here, needsPg: true },
  { name: "acceptance checks against a 150 ms registry", cmd: ["acceptance-checks.ts", "--facturas", "400"], cwd: here, needsPg: true },
  { name: "recovery after unanswered uploads, 150 ms QueryEstDte", cmd: ["outage-recovery.ts", "--documents", "200"], cwd: here, needsPg: true },
  { name: "a month of boletas from a spreadsheet", cmd: ["sheet-import.ts", "--documents", "2000"], cwd: here, needsPg: true },
  { name: "list latency, 1,000,000 documents", cmd: ["list-latency.ts", "--rows", "1000000", "--requests", "200"], cwd: here, needsPg: true },
];

for (const step of steps) {
  console.log(`\n=== ${step.name}`);
  if (step.needsPg && !pg) {
    console.log("skipped: DATABASE_URL is not set");
    continue;
  }
  const child = Bun.spawn([process.execPath, ...step.cmd], { cwd: step.cwd, env: { ...process.env, ...step.env }, stdout: "inherit", stderr: "inherit" });
  const code = await child.exited;
  if (code !== 0) console.log(`${step.name}: exit code ${code}`);
}
