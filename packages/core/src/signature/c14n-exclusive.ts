/**
 * An independent Exclusive XML Canonicalization 1.0 (`http://www.w3.org/2001/10/xml-exc-c14n#`, without comments
 * and without an InclusiveNamespaces prefix list) of one element subtree: a namespace declaration is rendered only
 * on the elements that visibly use its prefix (their own or an attribute's) and whose output ancestors do not
 * already bind it the same way. Some signers of DTEs use it (BRIEF-intercambio §4.2 variant 3). Internal.
 */
import { escapeAttr, escapeText } from "./c14n-verify.js";
import { XML_NS, XMLNS_NS, type XmlElement } from "./xml-tree.js";

/** The prefixes `el` visibly uses and what they are bound to ("" = the default namespace, "" when none). */
function visiblyUsed(el: XmlElement): Map<string, string> {
  const used = new Map<string, string>([[el.prefix ?? "", el.namespaceURI ?? ""]]);
  for (const a of el.attributes) {
    if (a.prefix === null || a.namespaceURI === XMLNS_NS || a.namespaceURI === XML_NS) continue;
    used.set(a.prefix, a.namespaceURI ?? "");
  }
  return used;
}

function render(el: XmlElement, rendered: Map<string, string>, out: string[]): void {
  const nsOut: Array<[string, string]> = [];
  for (const [prefix, uri] of visiblyUsed(el)) {
    if (prefix === "" && uri === "") {
      if ((rendered.get("") ?? "") !== "") nsOut.push(["", ""]);
    } else if (rendered.get(prefix) !== uri) nsOut.push([prefix, uri]);
  }
  nsOut.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const attrs = el.attributes
    .filter((a) => a.namespaceURI !== XMLNS_NS)
    .map((a) => ({ ns: a.namespaceURI ?? "", local: a.localName, qname: a.name, value: a.value }))
    .sort((a, b) => (a.ns !== b.ns ? (a.ns < b.ns ? -1 : 1) : a.local < b.local ? -1 : a.local > b.local ? 1 : 0));

  out.push(`<${el.tagName}`);
  for (const [prefix, uri] of nsOut) out.push(prefix === "" ? ` xmlns="${escapeAttr(uri)}"` : ` xmlns:${prefix}="${escapeAttr(uri)}"`);
  for (const a of attrs) out.push(` ${a.qname}="${escapeAttr(a.value)}"`);
  out.push(">");
  const childScope = nsOut.length === 0 ? rendered : new Map([...rendered, ...nsOut]);
  for (let n = el.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === 1) render(n, childScope, out);
    else if (n.nodeType === 3 || n.nodeType === 4) out.push(escapeText(n.nodeValue));
    else if (n.nodeType === 7) out.push(`<?${n.target}${n.data === "" ? "" : ` ${n.data}`}?>`);
  }
  out.push(`</${el.tagName}>`);
}

/** Exclusive C14N 1.0 (no comments) of the subtree rooted at `el`, as a JavaScript string (encode as UTF-8 to digest). */
export function canonicalizeExclusive(el: XmlElement): string {
  const out: string[] = [];
  render(el, new Map(), out);
  return out.join("");
}
