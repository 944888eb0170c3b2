import { expect, test } from "bun:test";
import { createRequire } from "node:module";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { cacheXmldomRegExps } from "./xmldom-regexp-cache.js";

const grammar = createRequire(import.meta.url)("@xmldom/xmldom/lib/grammar.js") as {
  reg: (...parts: Array<RegExp | string>) => RegExp;
  QName_group: RegExp;
  S_OPT: RegExp;
};

const XML = `<?xml version="1.0" encoding="ISO-8859-1"?><a:Root xmlns:a="urn:x"><a:B id="1">t&amp;x</a:B><C/><D>ñ</D></a:Root>`;
const parse = (text: string) => new XMLSerializer().serializeToString(new DOMParser().parseFromString(text, "text/xml"));

test("xmldom's end-tag expression is built once, and parsing gives the same document as before", () => {
  const before = parse(XML);
  cacheXmldomRegExps();
  cacheXmldomRegExps(); // idempotent
  const first = grammar.reg("^", grammar.QName_group, grammar.S_OPT, "$");
  expect(grammar.reg("^", grammar.QName_group, grammar.S_OPT, "$")).toBe(first);
  // the same expression xmldom would build itself
  const own = new RegExp(`^${grammar.QName_group.source}${grammar.S_OPT.source}$`, grammar.QName_group.flags.includes("u") ? "u" : "");
  expect(first.source).toBe(own.source);
  expect(first.flags).toBe(own.flags);
  // other parts → another expression
  expect(grammar.reg("^", grammar.QName_group)).not.toBe(first);
  expect(parse(XML)).toBe(before);
  // a malformed end tag is still an error
  expect(() => parse("<a><b></b c></a>")).toThrow(/end tag/);
});
