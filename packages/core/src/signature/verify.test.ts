import { describe, expect, spyOn, test } from "bun:test";
import { SignedXml } from "xml-crypto";
import { generateKeyPairSync } from "node:crypto";
import forge from "node-forge";
import { readSiiData } from "../../test/support/sii-data.js";
import { verifyDte, verifyEnvelope, verifyTed } from "./index.js";
import { descendantsNamed } from "./verify-xml.js";
import { parseXmlTree } from "./xml-tree.js";
import { DSIG_NS, verifySignatureOver } from "./verify-xmldsig.js";

const latin1 = (bytes: Uint8Array): string => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
};
const sample = (name: string): string => latin1(readSiiData(`fixtures/${name}`));
const replaceOnce = (text: string, from: RegExp | string, to: string): string => {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`tamper had no effect: ${String(from)}`);
  return out;
};

const SYNTH_DTE = "synthetic/DTE-T33F1.xml";
const SYNTH_ENV = "synthetic/EnvioDTE-T33F1.xml";

describe("verifyDte: the SII way (stand-alone, as the text stands)", () => {
  test.each(["synthetic/DTE-T33F1.xml", "synthetic/DTE-T39F1.xml"])("%s verifies, TED included", (name) => {
    const result = verifyDte(readSiiData(`fixtures/${name}`));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.documents?.[0]).toMatchObject({ signature: true, ted: true, folio: 1 });
  });

  // Signed with no namespace at all: verifies as the raw file stands (BRIEF §6.1).
  test.each([
    ["DTE--60910000-1--33--2336600.xml", "DTE-33-2336600", 33, 2336600],
    ["DTE--96670340-7--61--110616.xml", "DTE-61-110616", 61, 110616],
  ])("real %s (signed un-namespaced) verifies raw", (name, id, tipo, folio) => {
    const result = verifyDte(readSiiData(`fixtures/${name}`));
    expect(result.errors).toEqual([]);
    expect(result.documents).toEqual([{ id, tipo, folio, signature: true, ted: true, errors: [], ...(tipo === 61 ? { warnings: ["DTE: unsigned element DocPersonalizado after the Signature ignored"] } : {}) }]);
  });

  // MiPyme portal DTEs were signed as <DTE xmlns="http://www.sii.cl/SiiDte">: only the namespaced copy verifies.
  test.each(["DTE--76354771-K--33--170", "DTE--76399752-9--33--25568"])("real %s verifies --cleaned, not raw", (name) => {
    const cleaned = verifyDte(readSiiData(`fixtures/${name}--cleaned.xml`));
    expect(cleaned.errors).toEqual([]);
    expect(cleaned.documents?.[0]).toMatchObject({ signature: true, ted: true });
    const raw = verifyDte(readSiiData(`fixtures/${name}.xml`));
    expect(raw.valid).toBe(false);
    expect(raw.documents?.[0]).toMatchObject({ signature: false, ted: true });
    expect(raw.errors.join("\n")).toContain("digest mismatch");
    expect(raw.errors.join("\n")).toContain("signed namespaced and the namespace was stripped");
  });

  test.each(["DTE--60910000-1--33--2336600", "DTE--96670340-7--61--110616"])(
    "real %s--cleaned (namespace added after signing) fails",
    (name) => {
      const result = verifyDte(readSiiData(`fixtures/${name}--cleaned.xml`));
      expect(result.valid).toBe(false);
      expect(result.errors.join("\n")).toContain("the namespace was added after signing");
    },
  );

  test("a string input verifies like the bytes", () => {
    expect(verifyDte(sample(SYNTH_DTE)).valid).toBe(true);
  });
});

describe("verifyEnvelope", () => {
  test.each(["synthetic/EnvioDTE-T33F1.xml", "synthetic/EnvioDTE-T33F1-no-xsi.xml", "synthetic/EnvioBOLETA-T39F1.xml"])(
    "%s: SetDTE in context, DTE cut out, TED",
    (name) => {
      const result = verifyEnvelope(readSiiData(`fixtures/${name}`));
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      expect(result.documents).toHaveLength(1);
      expect(result.documents?.[0]).toMatchObject({ signature: true, ted: true, folio: 1 });
    },
  );

  test("the official example F60T33: every digest and signature value verifies, but its RSAKeyValue is not its certificate's key", () => {
    const strict = verifyEnvelope(readSiiData("fixtures/F60T33-ejemplo-oficial-SII.xml"));
    expect(strict.valid).toBe(false);
    expect(strict.errors).toEqual([
      "envelope signature: KeyInfo: RSAKeyValue is not the key of the X509Certificate",
      "DTE F60T33: signature: KeyInfo: RSAKeyValue is not the key of the X509Certificate",
    ]);
    const lenient = verifyEnvelope(readSiiData("fixtures/F60T33-ejemplo-oficial-SII.xml"), { requireCertificateKey: false });
    expect(lenient.errors).toEqual([]);
    expect(lenient.documents).toEqual([
      expect.objectContaining({ id: "F60T33", tipo: 33, folio: 60, signature: true, ted: true, errors: [] }),
    ]);
    expect(lenient.warnings?.length).toBe(2);
  });

  test("the official example's DTE verifies cut out, but not in the envelope's context (BRIEF §6.1)", () => {
    const text = sample("F60T33-ejemplo-oficial-SII.xml");
    const dte = text.slice(text.indexOf("<DTE "), text.indexOf("</DTE>") + "</DTE>".length);
    expect(verifyDte(dte, { requireCertificateKey: false }).valid).toBe(true);
    // In context the DTE inherits xmlns="http://www.sii.cl/SiiDte" (+ xmlns:xsi): its digest no longer matches.
    const doc = parseXmlTree(text);
    const documento = descendantsNamed(doc.documentElement, "http://www.sii.cl/SiiDte", "Documento")[0];
    const signature = descendantsNamed(doc.documentElement, DSIG_NS, "Signature")[0];
    if (documento === undefined || signature === undefined) throw new Error("sample shape");
    const inContext = verifySignatureOver(doc, text, signature, documento, [], { requireCertificateKey: false });
    expect(inContext.join("\n")).toContain("digest mismatch for #F60T33");
  });
});

describe("tampering is detected", () => {
  test("MntTotal changed in Documento", () => {
    const result = verifyDte(replaceOnce(sample(SYNTH_DTE), "<MntTotal>65061</MntTotal>", "<MntTotal>65062</MntTotal>"));
    expect(result.valid).toBe(false);
    expect(result.documents?.[0]?.signature).toBe(false);
    expect(result.errors.join("\n")).toContain("digest mismatch");
    expect(result.errors.join("\n")).toContain("TED: DD/MNT");
  });

  test("SignatureValue changed", () => {
    const text = sample(SYNTH_DTE);
    const result = verifyDte(replaceOnce(text, /<SignatureValue>S/, "<SignatureValue>T"));
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("SignatureValue does not verify");
  });

  test("X509Certificate and RSAKeyValue replaced with another key's", () => {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
    cert.serialNumber = "01";
    cert.validity.notBefore = new Date("2026-01-01T00:00:00Z");
    cert.validity.notAfter = new Date("2027-01-01T00:00:00Z");
    cert.setSubject([{ name: "commonName", value: "Mallory" }]);
    cert.setIssuer([{ name: "commonName", value: "Mallory" }]);
    cert.sign(forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString()), forge.md.sha256.create());
    const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary").toString("base64");
    const jwk = publicKey.export({ format: "jwk" });
    const n = Buffer.from(jwk.n ?? "", "base64url").toString("base64");
    let text = replaceOnce(sample(SYNTH_DTE), /<X509Certificate>[^<]*<\/X509Certificate>/, `<X509Certificate>${der}</X509Certificate>`);
    const certOnly = verifyDte(text);
    expect(certOnly.errors.join("\n")).toContain("RSAKeyValue is not the key of the X509Certificate");
    text = replaceOnce(text, /<Modulus>[^<]*<\/Modulus>/, `<Modulus>${n}</Modulus>`);
    const both = verifyDte(text);
    expect(both.valid).toBe(false);
    expect(both.errors.join("\n")).toContain("SignatureValue does not verify");
  });

  test("TED edited (DD/MNT): verifyTed and the DTE fail", () => {
    const text = sample(SYNTH_DTE);
    const ted = text.slice(text.indexOf("<TED "), text.indexOf("</TED>") + "</TED>".length);
    expect(verifyTed(ted)).toEqual({ valid: true, errors: [] });
    const edited = replaceOnce(ted, "<MNT>65061</MNT>", "<MNT>1</MNT>");
    expect(verifyTed(edited).errors).toContain("TED: FRMT does not verify with the CAF public key over DD");
    const dte = verifyDte(text.replace(ted, edited));
    expect(dte.documents?.[0]).toMatchObject({ signature: false, ted: false });
  });

  test("real pretty-printed TEDs verify on their own, with or without the namespace", () => {
    for (const name of ["DTE--96670340-7--61--110616.xml", "DTE--76354771-K--33--170--cleaned.xml"]) {
      const text = sample(name);
      const ted = text.slice(text.indexOf("<TED "), text.indexOf("</TED>") + "</TED>".length);
      expect(verifyTed(ted).errors).toEqual([]);
      expect(verifyTed(ted.replace("<TED ", '<TED xmlns="http://www.sii.cl/SiiDte" ')).valid).toBe(true);
    }
  });

  test("Caratula changed in the envelope", () => {
    const result = verifyEnvelope(replaceOnce(sample(SYNTH_ENV), "<NroResol>0</NroResol>", "<NroResol>80</NroResol>"));
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("envelope signature: digest mismatch for #SetDoc");
    expect(result.documents?.[0]).toMatchObject({ signature: true, ted: true });
  });

  test("DTE duplicated inside SetDTE", () => {
    const text = sample(SYNTH_ENV);
    const dte = text.slice(text.indexOf("<DTE "), text.indexOf("</DTE>") + "</DTE>".length);
    const result = verifyEnvelope(text.replace(dte, dte + dte));
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("digest mismatch for #SetDoc");
    expect(result.errors.join("\n")).toContain("appears more than once");
  });

  test("DTE moved out of SetDTE (after the envelope Signature)", () => {
    const text = sample(SYNTH_ENV);
    const dte = text.slice(text.indexOf("<DTE "), text.indexOf("</DTE>") + "</DTE>".length);
    const result = verifyEnvelope(text.replace(dte, "").replace(/<\/EnvioDTE>/, `${dte}</EnvioDTE>`));
    expect(result.valid).toBe(false);
    expect(result.errors[0]).toContain("must contain exactly SetDTE followed by its Signature");
  });

  test("wrapping: forged SetDTE with the signed one hidden under Signature/Object (same ID)", () => {
    const text = sample(SYNTH_ENV);
    const setStart = text.indexOf("<SetDTE ");
    const setEnd = text.indexOf("</SetDTE>") + "</SetDTE>".length;
    const original = text.slice(setStart, setEnd);
    const forged = original.replace("<NroResol>0</NroResol>", "<NroResol>80</NroResol>");
    const wrapped = text.slice(0, setStart) + forged + text.slice(setEnd).replace("</Signature>", `<Object>${original}</Object></Signature>`);
    const result = verifyEnvelope(wrapped);
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("is carried by 2 elements");
  });

  test("wrapping: forged Documento in the DTE, the signed one hidden under Signature/Object", () => {
    const text = sample(SYNTH_DTE);
    const start = text.indexOf("<Documento ");
    const end = text.indexOf("</Documento>") + "</Documento>".length;
    const original = text.slice(start, end);
    const forgedSameId = original.replace("<MntTotal>65061</MntTotal>", "<MntTotal>1</MntTotal>");
    const hide = (forged: string) =>
      text.slice(0, start) + forged + text.slice(end).replace("</Signature>", `<Object>${original}</Object></Signature>`);
    expect(verifyDte(hide(forgedSameId)).errors.join("\n")).toContain("is carried by 2 elements");
    const forgedOtherId = forgedSameId.replace('ID="T33F1"', 'ID="X"');
    expect(verifyDte(hide(forgedOtherId)).errors.join("\n")).toContain('does not point at Documento ID "X"');
  });

  test("a DOCTYPE is refused", () => {
    const text = sample(SYNTH_DTE).replace("?>", '?><!DOCTYPE DTE [<!ENTITY x "y">]>');
    expect(verifyDte(text).errors[0]).toContain("DOCTYPE");
  });

  test("a second Reference is refused (SII profile: exactly one)", () => {
    const text = sample(SYNTH_DTE);
    const ref = /<Reference URI="#T33F1">[\s\S]*?<\/Reference>/.exec(text)?.[0] ?? "";
    const result = verifyDte(text.replace(ref, ref + ref));
    expect(result.errors.join("\n")).toContain("expected exactly one Reference, found 2");
  });
});

describe("crossCheck: false (own checks only, no xml-crypto)", () => {
  test("a valid envelope still verifies, and tampering is still caught by the own canonicalizer", () => {
    const text = sample(SYNTH_ENV);
    expect(verifyEnvelope(text, { crossCheck: false })).toMatchObject({ valid: true, errors: [] });
    const caratula = verifyEnvelope(replaceOnce(text, "<NroResol>0</NroResol>", "<NroResol>80</NroResol>"), { crossCheck: false });
    expect(caratula.errors.join("\n")).toContain("envelope signature: digest mismatch for #SetDoc");
    const amount = verifyEnvelope(replaceOnce(text, "<MntTotal>65061</MntTotal>", "<MntTotal>65062</MntTotal>"), { crossCheck: false });
    expect(amount.valid).toBe(false);
    expect(amount.documents?.[0]?.signature).toBe(false);
    const value = verifyDte(replaceOnce(sample(SYNTH_DTE), /<SignatureValue>S/, "<SignatureValue>T"), { crossCheck: false });
    expect(value.errors.join("\n")).toContain("SignatureValue does not verify");
  });

  test("a DTE is judged as its cut-out text alone, also where the envelope's parse would read it otherwise", () => {
    const text = sample(SYNTH_ENV);
    // Without its own xmlns the DTE is in the SII namespace inside the envelope but in none alone: signed namespaced,
    // it does not verify alone (the SII's reading), whatever the envelope's parse says.
    const unnamespaced = replaceOnce(text, '<DTE xmlns="http://www.sii.cl/SiiDte" version="1.0">', '<DTE version="1.0">');
    for (const crossCheck of [false, true]) {
      const result = verifyEnvelope(unnamespaced, { crossCheck });
      expect(result.documents?.[0]?.signature).toBe(false);
      expect(result.documents?.[0]?.errors.join("\n")).toContain("hint: the signature verifies with xmlns=");
    }
    // A prefix the DTE uses but only the envelope declares: alone, the DTE is not even well-formed in namespaces.
    const borrowed = replaceOnce(text, '<DTE xmlns="http://www.sii.cl/SiiDte" version="1.0">', '<DTE xmlns="http://www.sii.cl/SiiDte" version="1.0" xsi:type="x">');
    const lean = verifyEnvelope(borrowed, { crossCheck: false });
    expect(lean.valid).toBe(false);
    expect(lean.documents?.[0]?.errors.join("\n")).toContain("undeclared prefix xsi");
    // Signature wrapping inside an envelope's DTE: the ID is looked up in the DTE alone, and found twice.
    const start = text.indexOf("<Documento ");
    const end = text.indexOf("</Documento>") + "</Documento>".length;
    const original = text.slice(start, end);
    const wrapped = text.slice(0, start) + original.replace(/<MntTotal>\d+<\/MntTotal>/, "<MntTotal>1</MntTotal>") +
      text.slice(end).replace("</Signature>", `<Object>${original}</Object></Signature>`);
    expect(verifyEnvelope(wrapped, { crossCheck: false }).documents?.[0]?.errors.join("\n")).toContain("is carried by 2 elements");
    // The intact DTE: the same verdict detached from the envelope's parse as parsed alone, with or without xml-crypto.
    const detached = verifyEnvelope(text, { crossCheck: false }).documents;
    const alone = verifyEnvelope(text).documents;
    expect(detached).toEqual(alone);
  });

  test("xml-crypto runs once per signature by default and not at all without the cross-check", () => {
    const spy = spyOn(SignedXml.prototype, "checkSignature");
    try {
      verifyEnvelope(sample(SYNTH_ENV));
      expect(spy.mock.calls.length).toBe(2); // SetDTE + the one DTE
      spy.mockClear();
      verifyEnvelope(sample(SYNTH_ENV), { crossCheck: false });
      expect(spy.mock.calls.length).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});
