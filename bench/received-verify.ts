/**
 * CPU of verifying received envelopes (API.md §12 import, core's `verifyReceivedEnvelope`): envelopes of 1 and 50
 * facturas addressed to the receiver, verified with and without xml-crypto's second opinion, one thread, in-process.
 * Reports documents/s and ms per document. Usage: `bun received-verify.ts [--seconds 3]`.
 */
import { issueCaf } from "@timbre/core/caf";
import { buildEnvelope, buildSignedDte, computeTotals, verifyReceivedEnvelope, type DocumentInput } from "@timbre/core";
import { generateAuthorityKey, generateTestCertificate } from "@timbre/core/testing";
import { arg, machine } from "./machine.js";

const seconds = Number(arg("seconds", "3"));
const authority = generateAuthorityKey(100);
const cert = await generateTestCertificate({ rut: "11111111-1", name: "ANA PEREZ", password: "x", validFrom: new Date(Date.now() - 86_400_000), validTo: new Date(Date.now() + 365 * 86_400_000) });
const identity = { privateKey: cert.privateKey, certificateDer: cert.certificateDer };
const caf = issueCaf({ authority, rut: "76192083-9", razonSocial: "Proveedor SpA", tipo: 33, desde: 1, hasta: 1000, fechaAutorizacion: "2026-01-01" }).caf;
const RECEIVER = "77777777-7";

const input = (folio: number): DocumentInput => ({
  tipo: 33,
  folio,
  fecha: "2026-01-15",
  issuer: { rut: "76192083-9", razonSocial: "Proveedor SpA", giro: "Comercio", acteco: [620200], direccion: "Av. Uno 1", comuna: "Santiago" },
  receiver: { rut: RECEIVER, razonSocial: "Compradora SpA", giro: "Comercio", direccion: "Calle 2", comuna: "Providencia" },
  items: [
    { nombre: "Servicio de consultoría", cantidad: 2, precio: 50000 },
    { nombre: "Licencia", cantidad: 1.5, precio: 10000.5, descuentoPorcentaje: 10 },
  ],
});

function envelopeOf(count: number): string {
  const dtes = Array.from({ length: count }, (_, i) => buildSignedDte({ input: input(i + 1), totals: computeTotals(input(i + 1)), caf, identity, timestamp: "2026-01-15T10:00:00" }));
  return buildEnvelope({ kind: "EnvioDTE", rutEmisor: "76192083-9", rutEnvia: "11111111-1", rutReceptor: RECEIVER, resolution: { numero: 0, fecha: "2026-01-01" }, dtes, identity, timestamp: "2026-01-15T10:00:00" });
}

console.log(machine());
console.log(`| Envelope | xml-crypto cross-check | Documents/s | ms/document |`);
console.log(`|---|---|---:|---:|`);
for (const count of [1, 50]) {
  const xml = envelopeOf(count);
  for (const crossCheck of [true, false]) {
    const options = { rutReceptor: RECEIVER, authorities: [{ idk: 100, publicKey: authority.publicKey }], crossCheck };
    const check = verifyReceivedEnvelope(xml, options);
    if (!check.ok || check.documents.some((d) => !d.verified)) throw new Error("the bench envelope does not verify");
    let docs = 0;
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) {
      verifyReceivedEnvelope(xml, options);
      docs += count;
    }
    const ms = performance.now() - start;
    console.log(`| ${count} DTE (${Math.round(xml.length / 1024)} KB) | ${crossCheck ? "yes" : "no"} | ${((docs * 1000) / ms).toFixed(0)} | ${(ms / docs).toFixed(3)} |`);
  }
}
