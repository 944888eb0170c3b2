// Run by test/dist-node.test.ts with plain `node` (no TypeScript, no Bun): imports the built @timbre/core,
// builds, stamps, signs and verifies one document, and prints the outcome as JSON.
// Usage: node dist-node-smoke.mjs <built index.js> <fixture.json>
import { createHash, createPrivateKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [entry, fixturePath] = process.argv.slice(2);
const core = await import(pathToFileURL(entry).href);
const fixture = JSON.parse(readFileSync(fixturePath, "utf8"));

const identity = { privateKey: createPrivateKey(fixture.keyPem), certificateDer: new Uint8Array(Buffer.from(fixture.certificateDer, "base64")) };
const caf = core.parseCaf(new Uint8Array(Buffer.from(fixture.cafXml, "base64")));
const input = fixture.input;
const issues = core.validateDocument(input);
const totals = core.computeTotals(input);
const dte = core.buildSignedDte({ input, totals, caf, identity, timestamp: fixture.timestamp });
const bytes = core.encodeLatin1(dte.xml);

// Independent digest/signature check with node:crypto and the exported canonicalizer.
const SII = "http://www.sii.cl/SiiDte";
const DSIG = "http://www.w3.org/2000/09/xmldsig#";
const slice = (open, close) => dte.xml.slice(dte.xml.indexOf(open), dte.xml.indexOf(close) + close.length);
const canonicalDocumento = core.canonicalizeXml(slice("<Documento ", "</Documento>"), { inScope: { "": SII } });
const digest = createHash("sha1").update(canonicalDocumento, "utf8").digest("base64");
const canonicalSignedInfo = core.canonicalizeXml(slice("<SignedInfo>", "</SignedInfo>"), { inScope: { "": DSIG } });
const signatureValue = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(dte.xml)[1];
const dd = /<DD>[\s\S]*<\/DD>/.exec(dte.ted)[0];
const frmt = /<FRMT algoritmo="SHA1withRSA">([^<]+)<\/FRMT>/.exec(dte.ted)[1];

const result = {
  node: process.version,
  issues,
  documentId: dte.documentId,
  montoTotal: totals.montoTotal,
  bytes: bytes.length,
  startsWith: dte.xml.slice(0, dte.xml.indexOf("<Encabezado>")),
  digestMatches: dte.xml.includes(`<DigestValue>${digest}</DigestValue>`),
  signatureValid: verify("sha1", Buffer.from(canonicalSignedInfo, "utf8"), identity.privateKey, Buffer.from(signatureValue, "base64")),
  tedValid: verify("sha1", Buffer.from(dd, "latin1"), caf.publicKey, Buffer.from(frmt, "base64")),
  verifyDte: typeof core.verifyDte === "function" ? core.verifyDte(bytes).valid : null,
};
console.log(JSON.stringify(result));
