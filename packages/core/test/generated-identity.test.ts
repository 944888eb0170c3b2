/**
 * The signing path with the team's own test helpers instead of the sample p12: generateTestCertificate →
 * loadPkcs12 → buildSignedDte / buildEnvelope / signSeed → independent verification, plus the team's verifiers.
 */
import { describe, expect, test } from "bun:test";
import { loadPkcs12 } from "../src/certificates/index.js";
import { verifyDte, verifyEnvelope } from "../src/signature/index.js";
import { generateTestCertificate } from "../src/testing/index.js";
import { computeTotals } from "../src/totals/index.js";
import { buildEnvelope, buildSignedDte, signSeed } from "../src/xml/index.js";
import { CASES } from "./support/document-cases.js";
import { verifyWithXmlCrypto, verifyWithXmldsigjs } from "./support/independent-verify.js";
import { cafFor, SAMPLE_RESOLUTION, SAMPLE_TIMESTAMP } from "./support/signing-fixtures.js";

const cert = await generateTestCertificate({ rut: "11111111-1", name: "JUAN PÉREZ", validFrom: new Date("2026-01-01T00:00:00Z"), validTo: new Date("2027-01-01T00:00:00Z"), password: "test1234" });
const loaded = await loadPkcs12(cert.p12, cert.password);
const identity = { privateKey: loaded.privateKey, certificateDer: loaded.certificateDer };
const input = CASES["33 factura"];
if (!input) throw new Error("fixture");
const dte = buildSignedDte({ input, totals: computeTotals(input), caf: cafFor(33), identity, timestamp: SAMPLE_TIMESTAMP });
const envelope = buildEnvelope({ kind: "EnvioDTE", rutEmisor: "76192083-9", rutEnvia: loaded.holderRut ?? "", resolution: SAMPLE_RESOLUTION, dtes: [dte.xml], identity, timestamp: SAMPLE_TIMESTAMP });

describe("signing with a generated certificate", () => {

  test("DTE, envelope and seed verify with xmldsigjs and xml-crypto", async () => {
    for (const xml of [dte.xml, envelope, signSeed("987654321012", identity)]) {
      expect(await verifyWithXmldsigjs(xml)).toBe(true);
      expect(verifyWithXmlCrypto(xml)).toBe(true);
    }
    expect(envelope).toContain("<RutEnvia>11111111-1</RutEnvia>");
  });

  test("the team's verifiers accept them", () => {
    expect(verifyDte(dte.xml)).toMatchObject({ valid: true, errors: [] });
    expect(verifyEnvelope(envelope)).toMatchObject({ valid: true, errors: [] });
  });
});
