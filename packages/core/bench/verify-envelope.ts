/**
 * Verifying a received envelope, one thread: `bun bench/verify-envelope.ts` (from packages/core; also part of
 * `npm run bench`). What the sandbox SII does with every upload (`verifyEnvelope` with `crossCheck: false`: the
 * envelope's SetDTE signature in context, each DTE's signature stand-alone, each TED), over an EnvioDTE of 16
 * facturas signed for real; CPU time per DTE, beside one RSA-2048/SHA-1 verification. Rounds alternate so both
 * see the same machine state.
 */
import { createPublicKey, randomBytes, sign, verify } from "node:crypto";
import type { DocumentInput } from "../src/document/types.js";
import { verifyEnvelope } from "../src/signature/index.js";
import { computeTotals } from "../src/totals/index.js";
import { buildEnvelope, buildSignedDte, encodeLatin1 } from "../src/xml/index.js";
import { CASES } from "../test/support/document-cases.js";
import { cafFor, SAMPLE_TIMESTAMP, sampleIdentity } from "../test/support/signing-fixtures.js";

const DTES = 16;
const ROUNDS = 3;
const identity = sampleIdentity();
const template = CASES["33 factura"] as DocumentInput;
const caf = cafFor(33);
const first = template.items[0];
if (first === undefined) throw new Error("the sample factura has no line");
const dtes = Array.from({ length: DTES }, (_, i) => {
  const input = { ...template, items: [{ ...first, nombre: "Servicio de consultoría" }], folio: i + 1 };
  return buildSignedDte({ input, totals: computeTotals(input), caf, identity, timestamp: SAMPLE_TIMESTAMP });
});
const envelope = encodeLatin1(
  buildEnvelope({ kind: "EnvioDTE", rutEmisor: template.issuer.rut, rutEnvia: "11111111-1", resolution: { numero: 0, fecha: "2014-08-22" }, dtes, identity, timestamp: SAMPLE_TIMESTAMP }),
);
const checked = verifyEnvelope(envelope, { crossCheck: false });
if (!checked.valid || checked.documents?.length !== DTES || !checked.documents.every((d) => d.signature && d.ted)) {
  throw new Error(`the benchmark's envelope does not verify: ${checked.errors.join("; ")}`);
}
const payload = randomBytes(64);
const signature = sign("sha1", payload, identity.privateKey);
const publicKey = createPublicKey(identity.privateKey);

/** CPU µs per call of `fn` over `calls` calls. */
function cpuPerCall(fn: () => unknown, calls: number): number {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

for (let i = 0; i < 30; i++) verifyEnvelope(envelope, { crossCheck: false }); // warm-up (JIT, key caches)
let envelopeUs = 0;
let rsaUs = 0;
for (let r = 0; r < ROUNDS; r++) {
  envelopeUs += cpuPerCall(() => verifyEnvelope(envelope, { crossCheck: false }), 300) / ROUNDS;
  rsaUs += cpuPerCall(() => verify("sha1", payload, publicKey, signature), 5000) / ROUNDS;
}
console.log(`envelope verification (${ROUNDS} rounds, one thread, ${typeof Bun === "undefined" ? `node ${process.version}` : `bun ${Bun.version}`})`);
console.log(`  verifyEnvelope, EnvioDTE of ${DTES} (${envelope.length} bytes)   ${(envelopeUs / DTES).toFixed(1).padStart(7)} µs CPU per DTE`);
console.log(`  one RSA-2048/SHA-1 verification              ${rsaUs.toFixed(1).padStart(7)} µs CPU`);
