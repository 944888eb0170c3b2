import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readSiiData } from "../../test/support/sii-data.js";
import { c14nWithXmlCrypto } from "../../test/support/independent-verify.js";
import { decodeLatin1 } from "../xml/latin1.js";
import { SII_NS, XSI_NS } from "../xml/constants.js";
import { canonicalizeXml } from "./canonical.js";

const sha1 = (text: string) => createHash("sha1").update(text, "utf8").digest("base64");
const sample = (name: string) => decodeLatin1(readSiiData(`fixtures/${name}`));
const between = (xml: string, open: string, close: string): string => {
  const start = xml.indexOf(open);
  const end = xml.indexOf(close, start);
  if (start < 0 || end < 0) throw new Error(`no ${open}`);
  return xml.slice(start, end + close.length);
};
const digests = (xml: string) => [...xml.matchAll(/<DigestValue>([^<]+)<\/DigestValue>/g)].map((m) => m[1]);

describe("canonicalizeXml", () => {
  test("sorts attributes, expands empty elements, drops comments and the prolog", () => {
    const xml = `<?xml version="1.0"?>\n<!-- c --><a xmlns="urn:x" b='1' a="2"><!-- in --><c/></a>`;
    expect(canonicalizeXml(xml)).toBe('<a xmlns="urn:x" a="2" b="1"><c></c></a>');
  });

  test("escapes text and attributes the C14N way, normalizes literal line ends", () => {
    const xml = `<a t="x&quot;y&#9;z&#10;&lt;'>">q &quot;u&quot; &apos; &amp; &gt; &#xD;\r\n<![CDATA[<&>]]></a>`;
    expect(canonicalizeXml(xml)).toBe(`<a t="x&quot;y&#x9;z&#xA;&lt;'>">q "u" ' &amp; &gt; &#xD;\n&lt;&amp;&gt;</a>`);
  });

  test("renders in-scope namespaces on the apex, drops redundant ones below, sorts by prefix", () => {
    const xml = `<b:r xmlns:b="urn:b" xmlns="urn:d" xmlns:a="urn:a" a:z="1" y="2"><c xmlns="urn:d"><d xmlns:a="urn:a2"/></c></b:r>`;
    expect(canonicalizeXml(xml, { inScope: { x: "urn:x" } })).toBe(
      '<b:r xmlns="urn:d" xmlns:a="urn:a" xmlns:b="urn:b" xmlns:x="urn:x" y="2" a:z="1"><c><d xmlns:a="urn:a2"></d></c></b:r>',
    );
  });

  test("embedded mode renders only what differs from the parent's context", () => {
    const ctx = { "": SII_NS, xsi: XSI_NS };
    expect(canonicalizeXml(`<DTE xmlns="${SII_NS}" version="1.0"><x/></DTE>`, { inScope: ctx, rendered: ctx })).toBe(
      '<DTE version="1.0"><x></x></DTE>',
    );
  });

  test("emits xmlns=\"\" only when undeclaring a default namespace", () => {
    expect(canonicalizeXml(`<a xmlns="urn:a"><b xmlns=""><c xmlns=""/></b></a>`)).toBe('<a xmlns="urn:a"><b xmlns=""><c></c></b></a>');
    expect(canonicalizeXml(`<a xmlns=""/>`)).toBe("<a></a>");
  });

  test("refuses DOCTYPE and unbalanced markup", () => {
    expect(() => canonicalizeXml(`<!DOCTYPE a [<!ENTITY x "y">]><a/>`)).toThrow();
    expect(() => canonicalizeXml(`<a><b></a>`)).toThrow();
  });

  test("official SII example F60T33: Documento of the cut-out DTE and SetDTE in context match the stored digests", () => {
    const xml = sample("F60T33-ejemplo-oficial-SII.xml");
    const [dteDigest, setDigest] = digests(xml);
    const documento = between(xml, "<Documento ", "</Documento>");
    expect(sha1(canonicalizeXml(documento))).toBe(dteDigest ?? "");
    const setDte = between(xml, "<SetDTE ", "</SetDTE>");
    expect(sha1(canonicalizeXml(setDte, { inScope: { "": SII_NS, xsi: XSI_NS } }))).toBe(setDigest ?? "");
  });

  test.each(["DTE--60910000-1--33--2336600--cleaned.xml", "DTE--76354771-K--33--170--cleaned.xml", "DTE--76399752-9--33--25568--cleaned.xml", "DTE--96670340-7--61--110616--cleaned.xml"])(
    "real DTE %s: canonical Documento equals xml-crypto's C14N",
    (name) => {
      const xml = sample(name);
      const dteTag = /<DTE[^>]*>/.exec(xml)?.[0] ?? "";
      const inScope: Record<string, string> = dteTag.includes(`xmlns="${SII_NS}"`) ? { "": SII_NS } : {};
      const documento = between(xml, "<Documento ", "</Documento>");
      expect(canonicalizeXml(documento, { inScope })).toBe(c14nWithXmlCrypto(xml, "Documento"));
    },
  );
});
