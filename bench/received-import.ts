/**
 * Received envelopes imported over HTTP (API.md §12 `POST /received`), their parse, schema and signature checks on
 * the verification threads (`VERIFY_THREADS`): documents/s of a real server process (PostgreSQL when DATABASE_URL
 * is set, else its embedded database) while two businesses each keep two envelopes of 50 facturas in flight, and
 * the CPU of verifying one document (`checkEnvelope`: core's verifier without xml-crypto, plus the XSD), in process,
 * for an envelope of 50 and the largest the API takes. The CAF authority is the bench's own, not the server's: the
 * documents are kept unverified (`caf` not `ok`), so no acuse or registry question follows — the checks and the
 * storage are those of a verified import. Usage: `bun received-import.ts [--seconds 20]`.
 */
import { encodeLatin1 } from "@timbre/core";
import { checkEnvelope } from "../apps/server/src/verify/check-envelope.js";
import { receivedEnvelopeMaker } from "../apps/server/tests/support/received-envelopes.js";
import { startScratchServer } from "../apps/server/tests/support/scratch-server.js";
import { arg, machine } from "./machine.js";
import { cpuMs } from "./proc-cpu.js";

const seconds = Number(arg("seconds", "20"));
const BASE = process.env.DATABASE_URL;
const RUTS = ["60803000-K", "96790240-3"];
console.log(machine());
console.log(`command: bun bench/received-import.ts --seconds ${seconds} (${BASE ? "PostgreSQL" : "embedded PGlite"})`);

const maker = await receivedEnvelopeMaker();
const fifty = new Map(RUTS.map((rut) => [rut, encodeLatin1(maker.envelope(rut, 50))]));
const largest = encodeLatin1(maker.largest(RUTS[0] ?? ""));

// CPU of one document's checks, in this process (one thread)
console.log(`| Envelope | Documents | CPU ms/document (verify + XSD) |`);
console.log(`|---|---:|---:|`);
for (const [label, bytes] of [["50 DTE", fifty.get(RUTS[0] ?? "")!], ["largest (≈ 5 MiB)", largest]] as const) {
  const first = await checkEnvelope(bytes, RUTS[0] ?? "", []);
  if (!first.ok) throw new Error(`the bench envelope does not verify: ${first.message}`);
  const before = process.cpuUsage();
  const repeat = bytes === largest ? 2 : 10;
  for (let i = 0; i < repeat; i++) await checkEnvelope(bytes, RUTS[0] ?? "", []);
  const used = process.cpuUsage(before);
  const docs = first.documents.length * repeat;
  console.log(`| ${label} (${Math.round(bytes.byteLength / 1024)} KB) | ${first.documents.length} | ${((used.user + used.system) / 1000 / docs).toFixed(2)} |`);
}

// Over HTTP: a server process, two businesses, two uploads each in flight
const scratch = await startScratchServer(RUTS, { RATE_LIMIT_PER_MINUTE: "1000000" });
const { server, keys } = scratch;
try {
  const upload = async (rut: string): Promise<number> => {
    const res = await fetch(`${server.url}/v1/received`, { method: "POST", headers: { "x-api-key": keys.get(rut) ?? "", "content-type": "application/xml" }, body: fifty.get(rut) as Uint8Array<ArrayBuffer> });
    await res.arrayBuffer();
    return res.status;
  };
  for (const rut of RUTS) if ((await upload(rut)) !== 201) throw new Error("warm-up import failed");
  const statuses = new Map<number, number>();
  let documents = 0;
  const cpuBefore = cpuMs(server.pid);
  const started = performance.now();
  const lane = async (rut: string) => {
    while (performance.now() - started < seconds * 1000) {
      const status = await upload(rut);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 201) documents += 50;
    }
  };
  await Promise.all(RUTS.flatMap((rut) => [lane(rut), lane(rut)]));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuMs(server.pid) - cpuBefore;
  console.log(`\n| Over HTTP | Envelopes (status: count) | Documents/s | Server CPU ms/document (all threads) |`);
  console.log(`|---|---|---:|---:|`);
  console.log(`| 2 businesses × 2 in flight, 50 DTE each, ${elapsed.toFixed(0)} s | ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")} | ${(documents / elapsed).toFixed(0)} | ${(cpu / Math.max(1, documents)).toFixed(2)} |`);
} finally {
  await scratch.close();
}
