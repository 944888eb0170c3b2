/**
 * How fast the dispatcher recovers the documents of unanswered envelopes, at the SII's pace:
 * `DATABASE_URL=postgres://… bun bench/outage-recovery.ts [--documents 400] [--latency-ms 150] [--concurrency 1,8]`.
 * One process: a scratch PostgreSQL database (the tests' harness) and the in-process sandbox SII. For each
 * `--concurrency`, `--documents` facturas are emitted while the SII takes uploads without answering (the sandbox's
 * `timeout` fault: 202 PENDIENTE, envelopes `unknown`); then, with QueryEstDte answering after `--latency-ms` (the
 * `slow` fault), the dispatcher's rounds run back to back — each document is first asked about (the SII has none of
 * them), then sent again — until none is PENDIENTE. Prints the documents recovered per second.
 */
import { inArray, and, eq } from "drizzle-orm";
import { createHarness } from "../apps/server/test/support/harness.js";
import { emitBody, emitInBatches, emitter } from "../apps/server/test/support/emission.js";
import { documents } from "../apps/server/src/db/documents.js";
import { waitForSubmissions } from "../apps/server/src/dispatch/submit-documents.js";
import { defaultDocumentEngine } from "../apps/server/src/jobs/default-document-engine.js";
import { createDispatcher } from "../apps/server/src/jobs/dispatch-pending.js";
import { arg, machine } from "./machine.js";

if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL (PostgreSQL) is required");
const DOCUMENTS = Number(arg("documents", "400"));
const LATENCY_MS = Number(arg("latency-ms", "150"));
const CONCURRENCIES = arg("concurrency", "1,8").split(",").map(Number);

console.log(machine());
console.log(`command: DATABASE_URL=… bun bench/outage-recovery.ts --documents ${DOCUMENTS} --latency-ms ${LATENCY_MS} --concurrency ${CONCURRENCIES.join(",")}`);
const h = await createHarness("postgres", { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", EMIT_BUDGET_MS: "1500" });
try {
  const t = await emitter(h, { tipos: [33], cantidad: DOCUMENTS * CONCURRENCIES.length });
  const sandbox = (await h.deps.sii()).sandbox;
  if (!sandbox) throw new Error("no in-process sandbox");
  const pendingOf = async (ids: string[]) => (await h.deps.db.select({ id: documents.id }).from(documents).where(and(inArray(documents.id, ids), eq(documents.estado, "PENDIENTE")))).length;
  for (const concurrency of CONCURRENCIES) {
    sandbox.faults.set({ mode: "timeout", path: "DTEUpload" });
    const ids = await emitInBatches(h, t.key.key, DOCUMENTS, () => emitBody(33));
    await waitForSubmissions(h.deps);
    sandbox.faults.clear();
    const pending = await pendingOf(ids);
    sandbox.faults.set({ mode: "slow", delayMs: LATENCY_MS, path: "QueryEstDte" });
    const dispatcher = createDispatcher(h.deps, defaultDocumentEngine, { concurrency });
    const started = performance.now();
    let rounds = 0;
    while ((await pendingOf(ids)) > 0 && performance.now() - started < 600_000) {
      await h.deps.db.update(documents).set({ nextCheckAt: new Date() }).where(and(inArray(documents.id, ids), eq(documents.estado, "PENDIENTE")));
      while (await dispatcher.tick()) rounds++;
      rounds++;
      await waitForSubmissions(h.deps);
    }
    const seconds = (performance.now() - started) / 1000;
    sandbox.faults.clear();
    console.log(`concurrency ${concurrency}: ${pending} PENDIENTE documents of unanswered envelopes recovered (ENVIADO) in ${seconds.toFixed(2)} s, ${rounds} rounds = ${(pending / seconds).toFixed(1)} documents/s; left PENDIENTE: ${await pendingOf(ids)}`);
  }
} finally {
  await h.close();
}
