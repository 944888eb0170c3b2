/** Cross-check with an independent XMLDSig implementation (xmldsigjs + WebCrypto) on the same samples. */
import { describe, expect, test } from "bun:test";
import { dirname } from "node:path";
import * as xmldom from "@xmldom/xmldom";
import * as xmldsig from "xmldsigjs";
import xpath from "xpath";
import { readSiiData } from "../../test/support/sii-data.js";
import { verifyDte, verifyEnvelope } from "./index.js";

// xmldsigjs uses its own nested xml-core instance: register the DOM on that very instance.
const xmlCore = (await import(Bun.resolveSync("xml-core", dirname(Bun.resolveSync("xmldsigjs", import.meta.dir))))) as {
  setNodeDependencies(deps: Record<string, unknown>): void;
};
xmlCore.setNodeDependencies({
  XMLSerializer: xmldom.XMLSerializer,
  DOMParser: xmldom.DOMParser,
  DOMImplementation: xmldom.DOMImplementation,
  xpath,
});
xmldsig.Application.setEngine("NodeJS", globalThis.crypto);

const latin1 = (bytes: Uint8Array): string => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
};

/** xmldsigjs's verdict on the `index`-th Signature of the document, with the key from KeyInfo. */
async function xmldsigjsVerify(text: string, index: number): Promise<boolean> {
  const doc = xmldsig.Parse(text);
  const signature = doc.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature").item(index);
  if (signature === null) throw new Error("no signature");
  const signed = new xmldsig.SignedXml(doc);
  signed.LoadXml(signature);
  try {
    return await signed.Verify();
  } catch (e) {
    // xmldsigjs throws on a digest mismatch (XMLJS0013) instead of returning false.
    if (String((e as { message?: unknown }).message ?? e).includes("XMLJS0013")) return false;
    throw e;
  }
}

describe("xmldsigjs agrees with verifyDte / verifyEnvelope", () => {
  test.each([
    ["synthetic/DTE-T33F1.xml", true],
    ["synthetic/DTE-T39F1.xml", true],
    ["DTE--60910000-1--33--2336600.xml", true],
    ["DTE--96670340-7--61--110616.xml", true],
    ["DTE--76354771-K--33--170--cleaned.xml", true],
    ["DTE--76399752-9--33--25568--cleaned.xml", true],
    ["DTE--76354771-K--33--170.xml", false],
    ["DTE--60910000-1--33--2336600--cleaned.xml", false],
  ] as const)("stand-alone DTE %s → %p", async (name, expected) => {
    const bytes = readSiiData(`fixtures/${name}`);
    expect(await xmldsigjsVerify(latin1(bytes), 0)).toBe(expected);
    expect(verifyDte(bytes).documents?.[0]?.signature).toBe(expected);
  });

  test.each([
    ["synthetic/EnvioDTE-T33F1.xml", true],
    ["synthetic/EnvioBOLETA-T39F1.xml", true],
    ["F60T33-ejemplo-oficial-SII.xml", false],
  ] as const)("envelope %s: SetDTE signature in context", async (name, strict) => {
    const bytes = readSiiData(`fixtures/${name}`);
    // The envelope Signature is the last one in document order.
    const text = latin1(bytes);
    const count = text.split("<Signature ").length - 1;
    expect(await xmldsigjsVerify(text, count - 1)).toBe(true);
    expect(verifyEnvelope(bytes, { requireCertificateKey: strict }).valid).toBe(true);
  });

  test("a changed amount fails in both", async () => {
    const text = latin1(readSiiData("fixtures/synthetic/DTE-T33F1.xml")).replace("<MntTotal>65061", "<MntTotal>65062");
    expect(await xmldsigjsVerify(text, 0)).toBe(false);
    expect(verifyDte(text).valid).toBe(false);
  });
});
