/**
 * The acceptance worker's pace against a registry that answers like the real SII, slowly:
 * `DATABASE_URL=postgres://… bun bench/acceptance-checks.ts [--facturas 400] [--latency-ms 150] [--concurrency 1,8]
 * [--per-second 10000]`.
 * One process: a scratch PostgreSQL database (the tests' harness) and the in-process sandbox SII, whose registry of
 * acceptances and claims answers every call after `--latency-ms` (the sandbox's `slow` fault). `--facturas`
 * facturas are emitted and accepted by the SII, then made due for their first acceptance check; for each
 * `--concurrency` the worker's rounds run back to back until none is due, and the checks per second are printed
 * (each check is two registry calls: listarEventosHistDoc and consultarFechaRecepcionSii), with the CPU per check
 * of this process (server code and sandbox SII together) and of PostgreSQL. `--per-second` is the worker's pace
 * (`ACCEPTANCE_CHECKS_PER_SECOND`, 20 in the server); unpaced by default, to see what the concurrency alone gives.
 */
import { isNotNull } from "drizzle-orm";
import { createHarness } from "../apps/server/test/support/harness.js";
import { emitBody, emitInBatches, emitter } from "../apps/server/test/support/emission.js";
import { documents } from "../apps/server/src/db/documents.js";
import { refreshDocumentStatuses } from "../apps/server/src/dispatch/refresh-document-status.js";
import { createAcceptanceWorker } from "../apps/server/src/jobs/poll-acceptance.js";
import { arg, machine } from "./machine.js";
import { cpuMs, postgresCpuMs } from "./proc-cpu.js";

if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL (PostgreSQL) is required");
const FACTURAS = Number(arg("facturas", "400"));
const LATENCY_MS = Number(arg("latency-ms", "150"));
const CONCURRENCIES = arg("concurrency", "1,8").split(",").map(Number);
const PER_SECOND = Number(arg("per-second", "10000"));

console.log(machine());
console.log(`command: DATABASE_URL=… bun bench/acceptance-checks.ts --facturas ${FACTURAS} --latency-ms ${LATENCY_MS} --concurrency ${CONCURRENCIES.join(",")} --per-second ${PER_SECOND}`);
const h = await createHarness("postgres", { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
try {
  const t = await emitter(h, { tipos: [33], cantidad: FACTURAS });
  const ids = await emitInBatches(h, t.key.key, FACTURAS, () => emitBody(33));
  for (let from = 0; from < ids.length; from += 100) await refreshDocumentStatuses(h.deps, ids.slice(from, from + 100));
  const accepted = await h.deps.db.select({ id: documents.id }).from(documents).where(isNotNull(documents.acceptanceCheckAt));
  console.log(`${ids.length} facturas emitted, ${accepted.length} accepted by the SII and scheduled for an acceptance check`);

  const sandbox = (await h.deps.sii()).sandbox;
  if (!sandbox) throw new Error("no in-process sandbox");
  for (const concurrency of CONCURRENCIES) {
    await h.deps.db.update(documents).set({ acceptance: null, acceptanceCheckAt: new Date() }).where(isNotNull(documents.acceptanceCheckAt));
    sandbox.faults.set({ mode: "slow", delayMs: LATENCY_MS, path: "WSREGISTRORECLAMODTE" });
    const worker = createAcceptanceWorker(h.deps, { concurrency, perSecond: PER_SECOND });
    const started = performance.now();
    const cpu0 = { own: cpuMs(process.pid), postgres: postgresCpuMs() };
    let rounds = 0;
    while ((await worker.tick()).more) rounds++;
    const seconds = (performance.now() - started) / 1000;
    const cpu = { own: cpuMs(process.pid) - cpu0.own, postgres: postgresCpuMs() - cpu0.postgres };
    sandbox.faults.clear();
    const answered = await h.deps.db.select({ id: documents.id }).from(documents).where(isNotNull(documents.acceptance));
    console.log(
      `concurrency ${concurrency}: ${answered.length} checks in ${seconds.toFixed(2)} s (${rounds + 1} rounds) = ${(answered.length / seconds).toFixed(1)} checks/s` +
        ` → ${((answered.length / seconds) * 86_400).toFixed(0)} a day; CPU ms per check: server + sandbox ${(cpu.own / answered.length).toFixed(2)}, postgres ${(cpu.postgres / answered.length).toFixed(2)}`,
    );
  }
} finally {
  await h.close();
}
