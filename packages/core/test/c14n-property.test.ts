/**
 * Property: for generated documents with tricky text, the canonical Documento we write beside the file text is
 * byte-identical to xml-crypto's and xmldsigjs's C14N of the parsed stand-alone DTE, and the signature and the
 * TED verify independently. A smaller run checks XSD validity of the envelopes.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { validateXsd } from "@timbre/xsd";
import { isReceipt } from "../src/document/types.js";
import { computeTotals } from "../src/totals/index.js";
import { buildEnvelope, encodeLatin1, validateDocument } from "../src/xml/index.js";
import { renderSignedDte } from "../src/xml/render-signed-dte.js";
import { canonicalizeXml } from "../src/signature/canonical.js";
import { SII_NS, XSI_NS } from "../src/xml/constants.js";
import { arbitraryDocument } from "./support/arbitrary-document.js";
import { c14nWithXmlCrypto, c14nWithXmldsigjs, verifyTedText, verifyWithXmlCrypto, verifyWithXmldsigjs } from "./support/independent-verify.js";
import { cafFor, SAMPLE_RESOLUTION, SAMPLE_TIMESTAMP, sampleIdentity } from "./support/signing-fixtures.js";

const sign = (input: Parameters<typeof computeTotals>[0] & Parameters<typeof validateDocument>[0]) =>
  renderSignedDte({ input, totals: computeTotals(input), caf: cafFor(input.tipo), identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });

/** What is in scope, and rendered, inside an envelope's SetDTE. */
const ENVELOPE_SCOPE = { "": SII_NS, xsi: XSI_NS };

describe("generated documents", () => {
  test("canonical Documento = xml-crypto C14N = xmldsigjs C14N; signature and TED verify", async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryDocument, async (input) => {
        expect(validateDocument(input)).toEqual([]);
        const dte = sign(input);
        expect(c14nWithXmlCrypto(dte.xml, "Documento")).toBe(dte.canonicalDocumento);
        expect(c14nWithXmldsigjs(dte.xml, "Documento")).toBe(dte.canonicalDocumento);
        // The DTE's C14N inside an envelope, written beside it, is the canonicalizer's over its text in that context.
        const text = dte.xml.slice(dte.xml.indexOf("<DTE"));
        expect(dte.envelopeC14n).toBe(canonicalizeXml(text, { inScope: ENVELOPE_SCOPE, rendered: ENVELOPE_SCOPE }));
        expect(verifyWithXmlCrypto(dte.xml)).toBe(true);
        expect(await verifyWithXmldsigjs(dte.xml)).toBe(true);
        expect(verifyTedText(dte.ted, cafFor(input.tipo).publicKey)).toBe(true);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  test("envelopes of generated documents are XSD-valid and their SetDTE signature verifies", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryDocument, { minLength: 1, maxLength: 3 }), async (inputs) => {
        const receipt = isReceipt(inputs[0]?.tipo ?? 33);
        const same = inputs.filter((i) => isReceipt(i.tipo) === receipt).map((i, n) => ({ ...i, folio: n + 1 }));
        const kind = receipt ? "EnvioBOLETA" : "EnvioDTE";
        const signed = same.map(sign);
        const options = { kind, rutEmisor: "76192083-9", rutEnvia: "11111111-1", resolution: SAMPLE_RESOLUTION, identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP } as const;
        // Given the signed DTEs, buildEnvelope uses their envelopeC14n; given texts, it canonicalizes: same bytes.
        const xml = buildEnvelope({ ...options, dtes: signed });
        expect(buildEnvelope({ ...options, dtes: signed.map((d) => d.xml) })).toBe(xml);
        const result = await validateXsd(encodeLatin1(xml), kind);
        expect(result.errors).toEqual([]);
        expect(verifyWithXmlCrypto(xml)).toBe(true);
        expect(await verifyWithXmldsigjs(xml)).toBe(true);
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
