/**
 * Signing throughput, one thread: `bun bench/sign.ts` (from packages/core; also `npm run bench`).
 * Signed documents per second (computeTotals + validate + build + TED + XMLDSig) beside the raw RSA-2048/SHA-1
 * signing rate (`crypto.sign("sha1", …)` over 1 KB) measured in the same run, alternating in rounds so both see
 * the same machine state. Goal: ratio ≥ 0.6.
 */
import { randomBytes, sign } from "node:crypto";
import type { DocumentInput } from "../src/document/types.js";
import { computeTotals } from "../src/totals/index.js";
import { buildSignedDte } from "../src/xml/index.js";
import { CASES } from "../test/support/document-cases.js";
import { cafFor, SAMPLE_TIMESTAMP, sampleIdentity } from "../test/support/signing-fixtures.js";

const ROUNDS = 3;
const ROUND_SECONDS = 1;
const identity = sampleIdentity();
const template = CASES["33 factura"] as DocumentInput;
const caf = cafFor(33);
const payload = randomBytes(1024);

let folio = 0;
function signDocument(): number {
  folio = (folio % 100) + 1;
  const input = { ...template, folio };
  return buildSignedDte({ input, totals: computeTotals(input), caf, identity, timestamp: SAMPLE_TIMESTAMP }).xml.length;
}
const signRaw = (): number => sign("sha1", payload, identity.privateKey).length;

function run(fn: () => number, seconds: number): { n: number; ms: number } {
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    fn();
    n++;
  }
  return { n, ms: performance.now() - start };
}

for (let i = 0; i < 50; i++) signDocument() + signRaw(); // warm-up (JIT, key caches)
const total = { doc: { n: 0, ms: 0 }, raw: { n: 0, ms: 0 } };
for (let r = 0; r < ROUNDS; r++) {
  for (const [key, fn] of [["raw", signRaw], ["doc", signDocument]] as const) {
    const { n, ms } = run(fn, ROUND_SECONDS);
    total[key].n += n;
    total[key].ms += ms;
  }
}
const rate = (t: { n: number; ms: number }) => (t.n * 1000) / t.ms;
const docs = rate(total.doc);
const raw = rate(total.raw);
const bytes = signDocument();
console.log(`core signing (${ROUNDS}×${ROUND_SECONDS}s each, one thread, ${typeof Bun === "undefined" ? `node ${process.version}` : `bun ${Bun.version}`})`);
console.log(`  signed DTE 33, 4 lines (~${bytes} chars)   ${docs.toFixed(0).padStart(6)} docs/s  ${(1000 / docs).toFixed(3)} ms/doc  (n=${total.doc.n})`);
console.log(`  raw RSA-2048/SHA-1 over 1 KB           ${raw.toFixed(0).padStart(6)} sig/s   ${(1000 / raw).toFixed(3)} ms/sig  (n=${total.raw.n})`);
console.log(`  ratio docs/raw                          ${(docs / raw).toFixed(3)}  (goal ≥ 0.6)`);
