// The DTE signature variants the SII accepts beyond ours (BRIEF-intercambio §4.2): documents signed by xml-crypto
// the way other signers do — Exclusive C14N, or the Documento signed before its DTE got its namespace (LibreDTE) —
// verify, and `firma_variante` names the variant; a tampered copy of each fails.
import { describe, expect, test } from "bun:test";
import { createPublicKey } from "node:crypto";
import { SignedXml } from "xml-crypto";
import { SAMPLE_RESOLUTION, SAMPLE_T33, SAMPLE_TIMESTAMP, ISSUER, sampleIdentity } from "../../test/support/signing-fixtures.js";
import { issueCaf } from "../caf/issue-caf.js";
import type { DocumentInput } from "../document/types.js";
import { generateAuthorityKey } from "../testing/generate-authority-key.js";
import { computeTotals } from "../totals/index.js";
import { buildEnvelope } from "../xml/build-envelope.js";
import { buildSignedDte } from "../xml/build-signed-dte.js";
import { SII_NS } from "../xml/constants.js";
import { verifyReceivedEnvelope } from "./index.js";

const RECEIVER = "77777777-7";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
const authority = generateAuthorityKey(100);
const caf = issueCaf({ authority, rut: ISSUER.rut, razonSocial: ISSUER.razonSocial, tipo: 33, desde: 1, hasta: 50, fechaAutorizacion: "2026-01-01" }).caf;
const input = (folio: number): DocumentInput => ({ ...SAMPLE_T33, folio, receiver: { ...SAMPLE_T33.receiver, rut: RECEIVER, razonSocial: "Comprador SpA" } });
const identity = sampleIdentity();

/** Our DTE of `folio` without its signature: `<DTE …><Documento …>…</Documento></DTE>`. */
function unsignedDte(folio: number): string {
  const { xml } = buildSignedDte({ input: input(folio), totals: computeTotals(input(folio)), caf, identity, timestamp: SAMPLE_TIMESTAMP });
  return xml.replace(/^<\?xml[^>]*>\s*/, "").replace(/<Signature[\s\S]*<\/Signature>/, "");
}

/** KeyInfo as the SII's profile has it: the RSA key and the certificate. */
function keyInfo(): string {
  const jwk = createPublicKey(identity.privateKey).export({ format: "jwk" });
  const b64 = (s: string | undefined) => Buffer.from(s ?? "", "base64url").toString("base64");
  const cert = Buffer.from(identity.certificateDer).toString("base64");
  return `<KeyValue><RSAKeyValue><Modulus>${b64(jwk.n)}</Modulus><Exponent>${b64(jwk.e)}</Exponent></RSAKeyValue></KeyValue><X509Data><X509Certificate>${cert}</X509Certificate></X509Data>`;
}

/** `dte` with its Documento signed by xml-crypto with `c14n` (SignedInfo and Reference), the Signature after it. */
function signWithXmlCrypto(dte: string, c14n: string): string {
  const pem = identity.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const sx = new SignedXml({ privateKey: pem, canonicalizationAlgorithm: c14n, signatureAlgorithm: "http://www.w3.org/2000/09/xmldsig#rsa-sha1", getKeyInfoContent: keyInfo });
  sx.addReference({ xpath: "//*[local-name(.)='Documento']", transforms: [c14n], digestAlgorithm: "http://www.w3.org/2000/09/xmldsig#sha1" });
  sx.computeSignature(dte, { location: { reference: "//*[local-name(.)='Documento']", action: "after" } });
  return sx.getSignedXml();
}

const envelope = (dtes: string[]) =>
  buildEnvelope({ kind: "EnvioDTE", rutEmisor: ISSUER.rut, rutEnvia: "11111111-1", rutReceptor: RECEIVER, resolution: SAMPLE_RESOLUTION, dtes, identity, timestamp: SAMPLE_TIMESTAMP });
const verify = (xml: string) => verifyReceivedEnvelope(xml, { rutReceptor: RECEIVER, authorities: [authority], crossCheck: false });
const tamper = (dte: string) => dte.replace("<NmbItem>", "<NmbItem>X");

/**
 * Exclusive C14N (declared `xml-exc-c14n#`), signed inside the namespaced DTE, which also declares a prefix the
 * Documento never uses: inclusive C14N would render it on the Documento, exclusive does not, so the digests differ.
 */
const exclusive = (folio: number) => signWithXmlCrypto(unsignedDte(folio).replace(/^<DTE\b/, '<DTE xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'), EXC_C14N);

/** The Documento signed (inclusive C14N) in a DTE without namespace, the namespace added to the DTE afterwards. */
function withoutInherited(folio: number): string {
  const bare = unsignedDte(folio).replace(` xmlns="${SII_NS}"`, "");
  return signWithXmlCrypto(bare, C14N).replace(/^<DTE\b/, `<DTE xmlns="${SII_NS}"`);
}

describe("received DTE signature variants", () => {
  test("Exclusive C14N signed by xml-crypto verifies as exclusiva; tampered, firma invalida", () => {
    const dte = exclusive(21);
    expect(dte).toContain(`Algorithm="${EXC_C14N}"`);
    expect(dte).toStartWith('<DTE xmlns:xsi=');
    const r = verify(envelope([dte, tamper(exclusive(22))]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.documents[0]?.verificacion).toMatchObject({ firma: "ok", firma_variante: "exclusiva", timbre: "ok", caf: "ok" });
    expect(r.documents[0]?.verified).toBe(true);
    expect(r.documents[1]?.verificacion.firma).toBe("invalida");
    expect(r.documents[1]?.verificacion.firma_variante).toBeUndefined();
    expect(r.documents[1]?.verified).toBe(false);
  });

  test("a Documento signed before its DTE got the SII namespace verifies as sin_heredados; tampered, firma invalida", () => {
    const dte = withoutInherited(23);
    expect(dte).toStartWith(`<DTE xmlns="${SII_NS}"`);
    const r = verify(envelope([dte, tamper(withoutInherited(24))]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.documents[0]?.verificacion).toMatchObject({ firma: "ok", firma_variante: "sin_heredados", timbre: "ok", caf: "ok" });
    expect(r.documents[0]?.verified).toBe(true);
    expect(r.documents[1]?.verificacion.firma).toBe("invalida");
    expect(r.documents[1]?.verified).toBe(false);
  });

  test("our own DTEs still verify as separado, the variants tried only after it", () => {
    const { xml } = buildSignedDte({ input: input(25), totals: computeTotals(input(25)), caf, identity, timestamp: SAMPLE_TIMESTAMP });
    const r = verify(envelope([xml]));
    expect(r.ok && r.documents[0]?.verificacion.firma_variante).toBe("separado");
  });
});
