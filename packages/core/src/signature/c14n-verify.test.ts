import { describe, expect, test } from "bun:test";
import { c14nWithXmldsigjs } from "../../test/support/independent-verify.js";
import { canonicalizeInclusive } from "./c14n-verify.js";
import { descendantsNamed } from "./verify-xml.js";
import { parseXmlTree } from "./xml-tree.js";

/** The first `localName` element of the document, in its context (ancestors and their declarations kept). */
function subtree(xml: string, localName: string) {
  const root = parseXmlTree(xml).documentElement;
  const el = root.localName === localName ? root : descendantsNamed(root, root.namespaceURI, localName)[0];
  if (el === undefined) throw new Error(`no ${localName}`);
  return el;
}

// Each case: a document and the element whose subtree is canonicalized; the reference is xmldsigjs's C14N 1.0.
const cases: Array<[string, string, string]> = [
  ["plain, no namespaces", `<a><b x="1" a="2">t<c/></b></a>`, "b"],
  ["inherited default namespace on the apex, not repeated below", `<r xmlns="urn:r"><s><t><u>1</u></t></s></r>`, "s"],
  ["an undone default below a subtree apex", `<a xmlns="urn:a"><b><c xmlns=""/></b></a>`, "b"],
  ["text and attributes that need escaping, and some that do not", `<a k="x&quot;y&#9;z&#10;&lt;'>" n="plain">q &amp; &gt; &#xD; &lt; plain<b>&amp;</b></a>`, "a"],
  ["attributes sorted by namespace then local name", `<a xmlns:z="urn:1" xmlns:y="urn:2"><b z:k="1" y:k="2" k="3" j="4"/></a>`, "b"],
  ["comments dropped, processing instructions kept", `<a><!-- x --><?pi data?><b/><?q?></a>`, "a"],
];

describe("canonicalizeInclusive (the verifiers' own C14N 1.0) agrees with xmldsigjs", () => {
  for (const [name, xml, apex] of cases) {
    test(name, () => {
      expect(canonicalizeInclusive(subtree(xml, apex))).toBe(c14nWithXmldsigjs(xml, apex));
    });
  }
});

/**
 * Where xmldsigjs departs from C14N 1.0 the expectation is the specification's: every namespace in scope is rendered
 * on the apex of a document subset, used or not (§2.3; libxml2 through lxml gives the same bytes); `xmlns=""` only
 * where the nearest output ancestor has a non-empty default (§4.7; libxml2 agrees); the apex receives the `xml:*`
 * attributes it inherits (§2.4).
 */
describe("canonicalizeInclusive follows C14N 1.0 where xmldsigjs does not", () => {
  test("every namespace in scope is rendered on the apex, sorted; a redundant redeclaration below is not", () => {
    const xml = `<p:r xmlns:p="urn:p" xmlns:b="urn:b" xmlns:a="urn:a"><p:s><p:t xmlns:p="urn:p" xmlns:c="urn:c" c:z="1"/></p:s></p:r>`;
    expect(canonicalizeInclusive(subtree(xml, "s"))).toBe(
      `<p:s xmlns:a="urn:a" xmlns:b="urn:b" xmlns:p="urn:p"><p:t xmlns:c="urn:c" c:z="1"></p:t></p:s>`,
    );
  });

  test('xmlns="" is output once, where an output default namespace is undone', () => {
    const xml = `<a xmlns="urn:a"><b xmlns=""><c xmlns=""><d xmlns="urn:d"/></c></b></a>`;
    expect(canonicalizeInclusive(subtree(xml, "a"))).toBe(`<a xmlns="urn:a"><b xmlns=""><c><d xmlns="urn:d"></d></c></b></a>`);
  });

  test("the apex receives the xml:* attributes it inherits and does not carry itself", () => {
    const xml = `<a xml:lang="es" xml:space="preserve"><b xml:lang="en"><c/></b></a>`;
    expect(canonicalizeInclusive(subtree(xml, "b"))).toBe(`<b xml:lang="en" xml:space="preserve"><c></c></b>`);
  });
});

/**
 * A signed target's content rendered inside a bigger subtree (an envelope's SetDTE) is reused for the target's own
 * C14N (its DTE's signature, the DTE detached) only where it renders the same: the result must always be that of a
 * fresh parse of the DTE alone.
 */
describe("canonicalizeInclusive reuses a signed target's content rendered in a bigger subtree only where it is the same", () => {
  const envelope = (documento: string) => `<E xmlns="urn:e" xmlns:xsi="urn:xsi"><S ID="set"><D xmlns="urn:e">${documento}</D><D xmlns="urn:e"><Doc ID="two"><x>2</x></Doc></D></S></E>`;
  /** The Doc's C14N after the envelope's S was rendered, with its D detached the way `verifyEnvelope` detaches it. */
  const afterEnvelope = (xml: string) => {
    const root = parseXmlTree(xml).documentElement;
    const [set, doc] = [descendantsNamed(root, "urn:e", "S")[0]!, descendantsNamed(root, "urn:e", "Doc")[0]!];
    const envelopeC14n = canonicalizeInclusive(set);
    const dte = doc.parentNode!;
    const parent = dte.parentNode;
    dte.parentNode = null;
    try {
      return { envelopeC14n, doc: canonicalizeInclusive(doc), again: canonicalizeInclusive(doc) };
    } finally {
      dte.parentNode = parent;
    }
  };
  const alone = (documento: string) => canonicalizeInclusive(subtree(`<D xmlns="urn:e">${documento}</D>`, "Doc"));

  test("same bindings below the target: the detached C14N is the stand-alone one", () => {
    const documento = `<Doc ID="one"><a k="v">1 &amp; 2</a><b><c/></b></Doc>`;
    const { envelopeC14n, doc, again } = afterEnvelope(envelope(documento));
    expect(envelopeC14n).toContain(`<Doc ID="one"><a k="v">1 &amp; 2</a><b><c></c></b></Doc>`);
    expect(doc).toBe(`<Doc xmlns="urn:e" ID="one"><a k="v">1 &amp; 2</a><b><c></c></b></Doc>`);
    expect(doc).toBe(alone(documento));
    expect(again).toBe(doc);
  });

  test("a declaration below the target that the envelope made redundant is written when the DTE stands alone", () => {
    const documento = `<Doc ID="one"><a xmlns:xsi="urn:xsi" xsi:k="v">1</a></Doc>`;
    const { envelopeC14n, doc } = afterEnvelope(envelope(documento));
    expect(envelopeC14n).toContain(`<a xsi:k="v">1</a>`);
    expect(doc).toBe(`<Doc xmlns="urn:e" ID="one"><a xmlns:xsi="urn:xsi" xsi:k="v">1</a></Doc>`);
    expect(doc).toBe(alone(documento));
  });

  test("a default namespace undone below the target renders as it would alone", () => {
    const documento = `<Doc ID="one"><a xmlns=""><b xmlns="urn:e">1</b></a></Doc>`;
    const { doc } = afterEnvelope(envelope(documento));
    expect(doc).toBe(alone(documento));
  });
});
