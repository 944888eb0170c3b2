import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { DOMParser, type Element as DomElement, type Node as DomNode } from "@xmldom/xmldom";
import { siiDataPath, readSiiData } from "../../test/support/sii-data.js";
import { decodeXml } from "./verify-xml.js";
import { parseXmlTree, XMLNS_NS, type XmlElement, type XmlNode } from "./xml-tree.js";

/** A tree as plain data: what the verifiers read of it. */
type Shape = string | { el: string; ns: string | null; attrs: string[]; children: Shape[] };

function ourShape(el: XmlElement): Shape {
  const children: Shape[] = [];
  for (let n: XmlNode | null = el.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === 1) children.push(ourShape(n));
    else if (n.nodeType === 3 || n.nodeType === 4) children.push(`text:${n.nodeValue}`);
    else if (n.nodeType === 7) children.push(`pi:${n.target}:${n.data}`);
  }
  const attrs = el.attributes.map((a) => `${a.namespaceURI ?? ""}|${a.localName}|${a.name}=${a.value}`);
  return { el: `${el.prefix ?? ""}:${el.localName}`, ns: el.namespaceURI, attrs, children: merge(children) };
}

function domShape(el: DomElement): Shape {
  const children: Shape[] = [];
  for (let n: DomNode | null = el.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === 1) children.push(domShape(n as DomElement));
    else if (n.nodeType === 3 || n.nodeType === 4) children.push(`text:${n.nodeValue ?? ""}`);
    else if (n.nodeType === 7) children.push(`pi:${(n as unknown as { target: string }).target}:${(n as unknown as { data: string }).data}`);
  }
  const attrs: string[] = [];
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i);
    if (a !== null) attrs.push(`${a.namespaceURI ?? ""}|${a.localName ?? a.name}|${a.name}=${a.value}`);
  }
  return { el: `${el.prefix ?? ""}:${el.localName ?? ""}`, ns: el.namespaceURI, attrs, children: merge(children) };
}

/** Adjacent text nodes joined (CDATA next to text is one run of characters to C14N). */
function merge(children: Shape[]): Shape[] {
  const out: Shape[] = [];
  for (const c of children) {
    const last = out[out.length - 1];
    if (typeof c === "string" && c.startsWith("text:") && typeof last === "string" && last.startsWith("text:")) out[out.length - 1] = last + c.slice(5);
    else out.push(c);
  }
  return out;
}

const xmldom = (text: string) => {
  const doc = new DOMParser({ onError: () => {} }).parseFromString(text, "text/xml");
  if (doc.documentElement === null) throw new Error("xmldom: no root");
  return doc.documentElement;
};

describe("parseXmlTree reads what xmldom reads", () => {
  const files = [
    ...readdirSync(siiDataPath("fixtures")).filter((f) => f.endsWith(".xml")).map((f) => `fixtures/${f}`),
    ...readdirSync(siiDataPath("fixtures/synthetic")).filter((f) => f.endsWith(".xml")).map((f) => `fixtures/synthetic/${f}`),
  ];
  test("there are samples to compare", () => expect(files.length).toBeGreaterThan(10));
  for (const file of files) {
    test(file, () => {
      const text = decodeXml(readSiiData(file));
      expect(ourShape(parseXmlTree(text).documentElement)).toEqual(domShape(xmldom(text)));
    });
  }

  test.each([
    ["line ends: CRLF and lone CR become LF in text; a referenced CR stays", "<a>x\r\ny\rz&#xD;</a>"],
    ["attribute white space becomes spaces; referenced white space stays", `<a k="1\t2\n3\r\n4&#9;5&#10;6&#xD;"/>`],
    ["namespaces: default, prefixed, undone, xml:, prefixed attributes", `<a xmlns="urn:a" xmlns:p="urn:p"><p:b p:k="1" xml:lang="es" k="2"><c xmlns=""><d/></c></p:b></a>`],
    ["CDATA, comments, PIs and references", `<?xml version="1.0"?><!-- c --><a><![CDATA[<x> & ]]>t&lt;&gt;&amp;&quot;&apos;&#233;&#x1F600;<?pi  some data?><!-- in --></a><!-- after -->`],
    ["single-quoted values with double quotes, and '>' in values", `<a k='say "hi" > there' j="it's"/>`],
  ])("%s", (_, text) => {
    expect(ourShape(parseXmlTree(text).documentElement)).toEqual(domShape(xmldom(text)));
  });
});

describe("parseXmlTree refuses what is not well-formed", () => {
  test.each([
    ["a DOCTYPE", `<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`, "DOCTYPE"],
    ["a mismatched end tag", "<a><b></a></b>", "does not close"],
    ["an unclosed element", "<a><b></b>", "not closed"],
    ["an end tag with nothing open", "<a/></a>", "does not close"],
    ["two roots", "<a/><b/>", "second root"],
    ["text outside the root", "<a/>x", "outside the root"],
    ["no root", "<?xml version='1.0'?>", "no root"],
    ["an undeclared element prefix", "<p:a/>", "undeclared prefix p"],
    ["an undeclared attribute prefix", `<a q:k="1"/>`, "undeclared prefix q"],
    ["a repeated attribute", `<a k="1" k="2"/>`, "repeated"],
    ["the same attribute through two prefixes", `<a xmlns:p="urn:x" xmlns:q="urn:x" p:k="1" q:k="2"/>`, "repeated"],
    ["'<' in an attribute value", `<a k="<"/>`, "not understood"],
    ["attributes without white space between them", `<a k="1"j="2"/>`, "not understood"],
    ["a stray '&'", "<a>fish & chips</a>", "'&'"],
    ["an unknown entity", "<a>&nbsp;</a>", "undefined entity"],
    ["a reference to an illegal character", "<a>&#0;</a>", "illegal character"],
    ["']]>' in text", "<a>]]></a>", "']]>'"],
    ["a control character", "<a>\u0001</a>", "does not allow"],
    ["an empty prefixed declaration", `<a xmlns:p=""/>`, "declared empty"],
    ["'--' in a comment", "<a><!-- a -- b --></a>", "'--'"],
    ["an XML declaration later on", `<a><?xml version="1.0"?></a>`, "not at the start"],
    ["an unterminated tag", "<a", "not understood"],
  ])("%s", (_, text, message) => {
    expect(() => parseXmlTree(text)).toThrow(message);
  });

  test("declarations are attributes in the xmlns namespace, as in the DOM", () => {
    const root = parseXmlTree(`<a xmlns="urn:a" xmlns:p="urn:p"/>`).documentElement;
    expect(root.attributes.map((a) => [a.name, a.namespaceURI, a.localName])).toEqual([
      ["xmlns", XMLNS_NS, "xmlns"],
      ["xmlns:p", XMLNS_NS, "p"],
    ]);
  });
});
