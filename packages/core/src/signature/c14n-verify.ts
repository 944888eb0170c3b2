/**
 * An independent Canonical XML 1.0 (inclusive, without comments) of one element subtree, as the SII profile
 * uses it (`http://www.w3.org/TR/2001/REC-xml-c14n-20010315`). The verifiers compute digests and the SignedInfo
 * bytes with it and require xml-crypto to have signed exactly the same bytes. Internal.
 */
import { isIdAttributeName } from "./verify-xml.js";
import { XML_NS, XMLNS_NS, type XmlElement } from "./xml-tree.js";

const TEXT_SPECIALS = /[&<>\r]/;
const ATTR_SPECIALS = /[&<"\t\n\r]/;

/** Most text and attribute values need no escaping: they are returned as they are, without six replacements. */
export const escapeText = (s: string): string =>
  TEXT_SPECIALS.test(s) ? s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;") : s;

export const escapeAttr = (s: string): string =>
  ATTR_SPECIALS.test(s)
    ? s
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/"/g, "&quot;")
        .replace(/\t/g, "&#x9;")
        .replace(/\n/g, "&#xA;")
        .replace(/\r/g, "&#xD;")
    : s;

/** Namespace declarations (prefix "" = default) made by the element itself. */
function ownDeclarations(el: XmlElement): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of el.attributes) {
    if (a.namespaceURI !== XMLNS_NS) continue;
    out.set(a.prefix === "xmlns" ? a.localName ?? "" : "", a.value);
  }
  return out;
}

/** Every namespace binding in scope at `el` (nearest declaration wins), the `xml` prefix excluded. */
function inScope(el: XmlElement): Map<string, string> {
  const chain: XmlElement[] = [];
  for (let n: XmlElement | null = el; n !== null; n = n.parentNode) chain.unshift(n);
  const scope = new Map<string, string>();
  for (const e of chain) for (const [prefix, uri] of ownDeclarations(e)) scope.set(prefix, uri);
  scope.delete("xml");
  return scope;
}

/** Inherited `xml:*` attributes of the apex (C14N 1.0 §2.4: they are copied onto the apex of a subset). */
function inheritedXmlAttributes(el: XmlElement): Map<string, string> {
  const out = new Map<string, string>();
  for (let e = el.parentNode; e !== null; e = e.parentNode) {
    for (const a of e.attributes) {
      if (a.namespaceURI === XML_NS && !out.has(a.localName)) {
        out.set(a.localName, a.value);
      }
    }
  }
  return out;
}

/**
 * The namespace declarations to output on an element: those of `scope` that the output so far (`rendered`) does not
 * already bind the same way. Below the apex only the element's own declarations can differ from `rendered`.
 */
function declarationsToOutput(scope: Map<string, string>, rendered: Map<string, string>): Array<[string, string]> {
  const nsOut: Array<[string, string]> = [];
  for (const [prefix, uri] of scope) {
    if (prefix === "xml") continue;
    if (prefix === "" && uri === "") {
      if ((rendered.get("") ?? "") !== "") nsOut.push(["", ""]); // xmlns="" only to undo an output default
      continue;
    }
    if (rendered.get(prefix) !== uri) nsOut.push([prefix, uri]);
  }
  return nsOut;
}

/**
 * The C14N of a signed target's children (an element with an ID, e.g. a DTE's `Documento`) as rendering a bigger
 * subtree gave it (an envelope's `SetDTE`), with the namespace bindings it was rendered under. The target's own
 * C14N (its DTE's signature, right after the envelope's) reuses it when those bindings agree, on every prefix
 * declared below the target, with the bindings of the target as apex (`reusable`): then every element below renders
 * the same bytes (only a declaration's prefix is ever looked up in the bindings). Rendering a DTE's Documento a
 * second time was a third of the sandbox SII's C14N (bench/RESULTS.md §6, "eighth session").
 */
interface RenderedContent {
  scope: Map<string, string>;
  text: string;
}
const renderedContents = new WeakMap<XmlElement, RenderedContent>();

const hasIdAttribute = (el: XmlElement): boolean => el.attributes.some((a) => isIdAttributeName(a.name));

/** Whether content rendered under `was` renders the same under `now`: no element below `el` declares a prefix bound differently. */
function reusable(el: XmlElement, was: Map<string, string>, now: Map<string, string>): boolean {
  const differ = new Set<string>();
  for (const [prefix, uri] of was) if (now.get(prefix) !== uri) differ.add(prefix);
  for (const [prefix, uri] of now) if (was.get(prefix) !== uri) differ.add(prefix);
  if (differ.size === 0) return true;
  const declaresOne = (e: XmlElement): boolean => {
    for (let n = e.firstChild; n !== null; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      if (n.declared !== null) for (const prefix of n.declared.keys()) if (differ.has(prefix)) return true;
      if (declaresOne(n)) return true;
    }
    return false;
  };
  return !declaresOne(el);
}

function render(el: XmlElement, rendered: Map<string, string>, apex: boolean, out: string[]): void {
  const hasAttributes = el.attributes.length > 0;
  if (!hasAttributes && !apex) {
    // Most elements of a DTE: nothing declared, nothing to sort.
    out.push(`<${el.tagName}>`);
    renderChildren(el, rendered, out);
    out.push(`</${el.tagName}>`);
    return;
  }
  const own = apex ? inScope(el) : hasAttributes ? ownDeclarations(el) : null;
  const nsOut = own === null ? [] : declarationsToOutput(own, rendered);
  nsOut.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

  const attrs: Array<{ ns: string; local: string; qname: string; value: string }> = [];
  for (const a of el.attributes) {
    if (a.namespaceURI === XMLNS_NS) continue;
    attrs.push({ ns: a.namespaceURI ?? "", local: a.localName, qname: a.name, value: a.value });
  }
  if (apex) {
    for (const [local, value] of inheritedXmlAttributes(el)) {
      if (!attrs.some((a) => a.ns === XML_NS && a.local === local)) {
        attrs.push({ ns: XML_NS, local, qname: `xml:${local}`, value });
      }
    }
  }
  attrs.sort((a, b) => (a.ns !== b.ns ? (a.ns < b.ns ? -1 : 1) : a.local < b.local ? -1 : a.local > b.local ? 1 : 0));

  out.push(`<${el.tagName}`);
  for (const [prefix, uri] of nsOut) out.push(prefix === "" ? ` xmlns="${escapeAttr(uri)}"` : ` xmlns:${prefix}="${escapeAttr(uri)}"`);
  for (const a of attrs) out.push(` ${a.qname}="${escapeAttr(a.value)}"`);
  out.push(">");

  // `rendered` is never changed in place: an element that outputs no declaration passes it on as it is.
  const childScope = nsOut.length === 0 ? rendered : new Map([...rendered, ...nsOut]);
  const earlier = apex ? renderedContents.get(el) : undefined;
  if (earlier !== undefined && reusable(el, earlier.scope, childScope)) {
    out.push(earlier.text);
  } else if (!apex && hasIdAttribute(el)) {
    const content: string[] = [];
    renderChildren(el, childScope, content);
    const text = content.join("");
    renderedContents.set(el, { scope: childScope, text });
    out.push(text);
  } else {
    renderChildren(el, childScope, out);
  }
  out.push(`</${el.tagName}>`);
}

function renderChildren(el: XmlElement, scope: Map<string, string>, out: string[]): void {
  for (let n = el.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === 1) render(n, scope, false, out);
    else if (n.nodeType === 3 || n.nodeType === 4) out.push(escapeText(n.nodeValue));
    else if (n.nodeType === 7) out.push(`<?${n.target}${n.data === "" ? "" : ` ${n.data}`}?>`);
    // comments (8) are dropped: C14N without comments
  }
}

/**
 * Inclusive C14N 1.0 (no comments) of the subtree rooted at `el`, with every namespace in scope from its
 * ancestors rendered on it, as a JavaScript string (encode as UTF-8 to digest or verify).
 */
export function canonicalizeInclusive(el: XmlElement): string {
  const out: string[] = [];
  render(el, new Map(), true, out);
  return out.join("");
}

/**
 * Inclusive C14N 1.0 of the subtree at `el` as if it had no ancestors: only the namespaces it and its descendants
 * declare are rendered ("strip inherited namespaces", how LibreDTE signs a `Documento` before it is placed in its
 * namespaced `DTE`; BRIEF-intercambio §4.2 variant 4).
 */
export function canonicalizeWithoutInherited(el: XmlElement): string {
  const out: string[] = [];
  render(el, new Map(), false, out);
  return out.join("");
}
