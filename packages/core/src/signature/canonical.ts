/**
 * Inclusive Canonical XML 1.0 (without comments) of one element subtree given as text — enough XML for what
 * Timbre handles (elements, attributes, text, entity and character references, CDATA, comments, PIs; no DTD).
 * Used off the hot path: for signed DTE texts inserted into an envelope and for CAF fragments.
 */
import { TimbreError } from "../errors/index.js";
import { escapeC14nAttr, escapeC14nText } from "../xml/escape.js";

/** Namespace bindings by prefix (`""` = default namespace). */
export type NamespaceMap = Readonly<Record<string, string>>;

export interface CanonicalizeOptions {
  /** Bindings in scope from the element's ancestors. */
  inScope?: NamespaceMap;
  /**
   * Bindings already rendered by the nearest output ancestor. Omit for an apex (then every in-scope binding is
   * rendered on the root element); pass `inScope` again when the subtree is embedded in a canonical parent.
   */
  rendered?: NamespaceMap;
}

const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|[^<]+/gy;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(text: string): string {
  if (text.includes("&") === false) return text;
  return text.replace(ENTITY, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
    if (dec !== undefined) return String.fromCodePoint(parseInt(dec, 10));
    return (name !== undefined ? NAMED[name] : undefined) ?? whole;
  });
}

/** Literal line ends become `\n` before decoding (character references survive as written). */
const normalizeNewlines = (text: string): string => text.replace(/\r\n?/g, "\n");

interface Frame {
  name: string;
  inScope: NamespaceMap;
  /** The element's namespace axis: what its children compare their declarations against. */
  rendered: NamespaceMap;
}

/**
 * C14N 1.0 (inclusive, no comments) of the first element in `xml` and its descendants.
 *
 * @example
 * canonicalizeXml('<a xmlns="urn:x" b=\'1\' a="2"><c/></a>') // '<a xmlns="urn:x" a="2" b="1"><c></c></a>'
 */
export function canonicalizeXml(xml: string, options: CanonicalizeOptions = {}): string {
  const rootInScope = options.inScope ?? {};
  const stack: Frame[] = [];
  let out = "";
  let started = false;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < xml.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(xml);
    if (!m) throw new TimbreError("XML_MALFORMED", `cannot canonicalize: unexpected markup at ${at}`);
    const token = m[0];
    if (m[3] !== undefined) {
      const parent = stack[stack.length - 1];
      const inherited = parent ? parent.inScope : rootInScope;
      const renderedAbove = parent ? parent.rendered : (options.rendered ?? {});
      const { tag, frame } = startTag(m[3], m[4] ?? "", inherited, renderedAbove);
      out += tag;
      started = true;
      if (m[5] === "/") {
        out += `</${m[3]}>`;
        if (stack.length === 0) return out;
      } else stack.push(frame);
    } else if (m[2] !== undefined) {
      const open = stack.pop();
      if (!open || open.name !== m[2]) throw new TimbreError("XML_MALFORMED", `unbalanced </${m[2]}> at ${at}`);
      out += `</${m[2]}>`;
      if (stack.length === 0) return out;
    } else if (stack.length === 0) {
      // prolog / epilog: XML declaration, comments, whitespace are outside the subtree
      if (started || (token.trim() !== "" && !token.startsWith("<"))) {
        throw new TimbreError("XML_MALFORMED", `text outside the root element at ${at}`);
      }
    } else if (m[1] !== undefined) {
      out += escapeC14nText(normalizeNewlines(m[1]));
    } else if (token.startsWith("<!--")) {
      continue;
    } else if (token.startsWith("<?")) {
      out += token;
    } else if (token.startsWith("<")) {
      throw new TimbreError("XML_MALFORMED", `unsupported markup at ${at}`);
    } else {
      out += escapeC14nText(decode(normalizeNewlines(token)));
    }
  }
  throw new TimbreError("XML_MALFORMED", "unexpected end of XML");
}

function startTag(name: string, attrText: string, inherited: NamespaceMap, renderedAbove: NamespaceMap) {
  const inScope: Record<string, string> = { ...inherited };
  const attrs: { prefix: string; local: string; value: string }[] = [];
  ATTR.lastIndex = 0;
  for (let a = ATTR.exec(attrText); a; a = ATTR.exec(attrText)) {
    const qname = a[1] ?? "";
    const raw = a[2] ?? a[3] ?? "";
    const value = decode(normalizeNewlines(raw).replace(/[\t\n]/g, " "));
    if (qname === "xmlns") inScope[""] = value;
    else if (qname.startsWith("xmlns:")) inScope[qname.slice(6)] = value;
    else {
      const colon = qname.indexOf(":");
      attrs.push(colon < 0 ? { prefix: "", local: qname, value } : { prefix: qname.slice(0, colon), local: qname.slice(colon + 1), value });
    }
  }
  const nsOut: [string, string][] = [];
  for (const prefix of Object.keys(inScope).sort()) {
    const uri = inScope[prefix] ?? "";
    const above = renderedAbove[prefix];
    if (prefix === "" && uri === "") {
      if (above !== undefined && above !== "") nsOut.push(["", ""]);
    } else if (above !== uri) nsOut.push([prefix, uri]);
  }
  const uriOf = (prefix: string): string => (prefix === "" ? "" : prefix === "xml" ? "http://www.w3.org/XML/1998/namespace" : inScope[prefix] ?? "");
  attrs.sort((x, y) => {
    const ux = uriOf(x.prefix);
    const uy = uriOf(y.prefix);
    if (ux !== uy) return ux < uy ? -1 : 1;
    return x.local < y.local ? -1 : x.local > y.local ? 1 : 0;
  });
  let tag = `<${name}`;
  for (const [prefix, uri] of nsOut) tag += `${prefix === "" ? " xmlns" : ` xmlns:${prefix}`}="${escapeC14nAttr(uri)}"`;
  for (const a of attrs) tag += ` ${a.prefix === "" ? a.local : `${a.prefix}:${a.local}`}="${escapeC14nAttr(a.value)}"`;
  return { tag: `${tag}>`, frame: { name, inScope, rendered: inScope } };
}
