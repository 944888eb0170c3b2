/**
 * A small, strict XML parser for the verifiers: namespaces resolved, entities and character references decoded,
 * line ends and attribute whitespace normalised as XML 1.0 says (§2.11, §3.3.3), and a plain tree out — elements,
 * text, CDATA, comments and processing instructions, with the subset of DOM names the verifiers read
 * (`nodeType`, `localName`, `namespaceURI`, `tagName`, `attributes`, `firstChild`, `nextSibling`, `parentNode`,
 * `getAttribute`, `textContent`). Refuses DOCTYPE (no entities but the five predefined), mismatched or unclosed
 * tags, undeclared prefixes, repeated attributes, `<` in attribute values, `]]>` in text, a stray `&`, characters
 * XML forbids, content outside the single root. It exists because building xmldom's full DOM was half of the
 * sandbox SII's CPU (bench/RESULTS.md §6, 2026-11-27); xmldom still parses wherever xml-crypto needs its nodes.
 * Internal.
 */

export const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
export const XML_NS = "http://www.w3.org/XML/1998/namespace";

export interface XmlAttribute {
  /** Qualified name as written (`xmlns:ds`, `ID`). */
  name: string;
  prefix: string | null;
  localName: string;
  /** `XMLNS_NS` for namespace declarations; null for unprefixed attributes. */
  namespaceURI: string | null;
  value: string;
}

export class XmlText {
  nodeType: 3 | 4;
  parentNode: XmlElement | null = null;
  nextSibling: XmlNode | null = null;
  constructor(
    public nodeValue: string,
    cdata: boolean,
  ) {
    this.nodeType = cdata ? 4 : 3;
  }
}

export class XmlComment {
  readonly nodeType = 8;
  parentNode: XmlElement | null = null;
  nextSibling: XmlNode | null = null;
  constructor(public nodeValue: string) {}
}

export class XmlProcessingInstruction {
  readonly nodeType = 7;
  parentNode: XmlElement | null = null;
  nextSibling: XmlNode | null = null;
  constructor(
    public target: string,
    public data: string,
  ) {}
}

export type XmlNode = XmlElement | XmlText | XmlComment | XmlProcessingInstruction;

export class XmlElement {
  readonly nodeType = 1;
  parentNode: XmlElement | null = null;
  nextSibling: XmlNode | null = null;
  firstChild: XmlNode | null = null;
  lastChild: XmlNode | null = null;
  namespaceURI: string | null = null;
  /** Declarations made on this element (prefix "" = default), for namespace resolution while parsing. */
  declared: Map<string, string> | null = null;
  /** The default namespace in scope here while parsing ("" once undone, undefined where none was declared). */
  defaultNamespace: string | undefined = undefined;

  constructor(
    public tagName: string,
    public prefix: string | null,
    public localName: string,
    public attributes: XmlAttribute[],
  ) {}

  getAttribute(name: string): string | null {
    for (const a of this.attributes) if (a.name === name) return a.value;
    return null;
  }

  get textContent(): string {
    let out = "";
    const walk = (el: XmlElement) => {
      for (let n = el.firstChild; n !== null; n = n.nextSibling) {
        if (n.nodeType === 1) walk(n);
        else if (n.nodeType === 3 || n.nodeType === 4) out += n.nodeValue;
      }
    };
    walk(this);
    return out;
  }

  append(node: XmlNode): void {
    node.parentNode = this;
    if (this.lastChild === null) this.firstChild = node;
    else this.lastChild.nextSibling = node;
    this.lastChild = node;
  }
}

export interface XmlDocument {
  documentElement: XmlElement;
}

const NAME = "[A-Za-z_:\\u00C0-\\uFFFF][\\w.:\\-\\u00B7\\u00C0-\\uFFFF]*";
/** Markup at a position: comment, CDATA, PI (the XML declaration too), end tag, start tag with its attributes. */
const MARKUP = new RegExp(
  `<!--([\\s\\S]*?)-->|<!\\[CDATA\\[([\\s\\S]*?)\\]\\]>|<\\?(${NAME})([\\s\\S]*?)\\?>|</(${NAME})[ \\t\\n]*>|<(${NAME})((?:[ \\t\\n]+${NAME}[ \\t\\n]*=[ \\t\\n]*(?:"[^<"]*"|'[^<']*'))*)[ \\t\\n]*(/?)>`,
  "y",
);
const ATTRIBUTE = new RegExp(`(${NAME})[ \\t\\n]*=[ \\t\\n]*(?:"([^"]*)"|'([^']*)')`, "g");
const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([A-Za-z_][\w.-]*));/g;
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * Whether `FORBIDDEN_CHAR` needs to run at all: a control character, U+FFFE/U+FFFF or any surrogate. A plain
 * character class (no lookaround) that the regular-expression JIT runs fast over a whole envelope; the precise
 * pattern runs only on the rare text that has one of these (a legal surrogate pair, say).
 */
// eslint-disable-next-line no-control-regex
const MAYBE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

class XmlSyntaxError extends Error {}

const fail = (message: string, at: number): never => {
  throw new XmlSyntaxError(`malformed XML: ${message} at offset ${at}`);
};

function legalCodePoint(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/** Entity and character references decoded; any other `&` is an error. */
function decode(raw: string, at: number): string {
  if (!raw.includes("&")) return raw;
  const out = raw.replace(REFERENCE, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return PREDEFINED[name] ?? fail(`undefined entity &${name};`, at);
    const cp = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    return legalCodePoint(cp) ? String.fromCodePoint(cp) : fail(`character reference to an illegal character`, at);
  });
  // A `&` left over was not a reference (the decoded `&amp;` gives `&` too: count them apart).
  if (raw.replace(REFERENCE, "").includes("&")) fail("'&' that starts no reference", at);
  return out;
}

function splitName(qname: string, at: number): [string | null, string] {
  const colon = qname.indexOf(":");
  if (colon < 0) return [null, qname];
  if (colon === 0 || colon === qname.length - 1 || qname.indexOf(":", colon + 1) >= 0) fail(`bad qualified name ${qname}`, at);
  return [qname.slice(0, colon), qname.slice(colon + 1)];
}

function lookup(el: XmlElement | null, prefix: string): string | undefined {
  if (prefix === "xml") return XML_NS;
  for (let e = el; e !== null; e = e.parentNode) {
    const uri = e.declared?.get(prefix);
    if (uri !== undefined) return uri;
  }
  return undefined;
}

function openElement(qname: string, rawAttributes: string, parent: XmlElement | null, at: number): XmlElement {
  const attributes: XmlAttribute[] = [];
  const [prefix, localName] = splitName(qname, at);
  const el = new XmlElement(qname, prefix, localName, attributes);
  el.parentNode = parent; // for lookups; `append` sets it again
  if (rawAttributes !== "") {
    ATTRIBUTE.lastIndex = 0;
    for (let m = ATTRIBUTE.exec(rawAttributes); m !== null; m = ATTRIBUTE.exec(rawAttributes)) {
      const name = m[1] as string;
      // §3.3.3: each literal white-space character becomes a space (references are decoded after, and kept).
      const value = decode((m[2] ?? m[3] ?? "").replace(/[\t\n]/g, " "), at);
      const [attrPrefix, attrLocal] = splitName(name, at);
      if (attributes.some((a) => a.name === name)) fail(`attribute ${name} repeated`, at);
      let namespaceURI: string | null = null;
      if (name === "xmlns" || attrPrefix === "xmlns") {
        namespaceURI = XMLNS_NS;
        const declaredPrefix = attrPrefix === null ? "" : attrLocal;
        if (declaredPrefix !== "" && value === "") fail(`xmlns:${declaredPrefix} declared empty`, at);
        (el.declared ??= new Map()).set(declaredPrefix, value);
      }
      attributes.push({ name, prefix: attrPrefix, localName: attrPrefix === null ? name : attrLocal, namespaceURI, value });
    }
  }
  // The default namespace is carried down the tree: an unprefixed element needs no walk up its ancestors.
  el.defaultNamespace = el.declared?.get("") ?? parent?.defaultNamespace;
  const uri = prefix === null ? el.defaultNamespace : lookup(el, prefix);
  if (prefix !== null && uri === undefined) fail(`undeclared prefix ${prefix}`, at);
  el.namespaceURI = uri === undefined || uri === "" ? null : uri;
  let seen: Set<string> | null = null;
  for (const a of attributes) {
    if (a.prefix === null || a.namespaceURI === XMLNS_NS) continue;
    const ns = lookup(el, a.prefix);
    if (ns === undefined) fail(`undeclared prefix ${a.prefix}`, at);
    a.namespaceURI = ns ?? null;
    const expanded = `${ns}|${a.localName}`;
    if ((seen ??= new Set()).has(expanded)) fail(`attribute {${ns}}${a.localName} repeated`, at);
    seen.add(expanded);
  }
  return el;
}

/**
 * Parses a complete XML document (text already decoded from its bytes). Throws an `Error` whose message starts
 * with "malformed XML" (or names the refused DOCTYPE).
 *
 * @example
 * parseXmlTree('<a xmlns="urn:x"><b>1</b></a>').documentElement.namespaceURI; // "urn:x"
 */
export function parseXmlTree(source: string): XmlDocument {
  if (/<!DOCTYPE|<!ENTITY/i.test(source)) throw new Error("XML with a DOCTYPE/ENTITY declaration is refused");
  const text = (source.charCodeAt(0) === 0xfeff ? source.slice(1) : source).replace(/\r\n?/g, "\n");
  const bad = MAYBE_FORBIDDEN.test(text) ? FORBIDDEN_CHAR.exec(text) : null;
  if (bad !== null) fail("a character XML does not allow", bad.index);
  let root: XmlElement | null = null;
  let current: XmlElement | null = null;
  let pos = 0;
  while (pos < text.length) {
    const lt = text.indexOf("<", pos);
    const end = lt < 0 ? text.length : lt;
    if (end > pos) {
      const raw = text.slice(pos, end);
      if (current === null) {
        if (!/^[ \t\n]*$/.test(raw)) fail("text outside the root element", pos);
      } else {
        if (raw.includes("]]>")) fail("']]>' in text", pos);
        current.append(new XmlText(decode(raw, pos), false));
      }
      pos = end;
      if (lt < 0) break;
    }
    MARKUP.lastIndex = pos;
    const m = MARKUP.exec(text);
    if (m === null) fail("markup not understood", pos);
    const match = m as RegExpExecArray;
    const [whole, comment, cdata, piTarget, piData, endName, startName, rawAttributes, selfClosing] = match;
    if (comment !== undefined) {
      if (comment.includes("--") || comment.endsWith("-")) fail("'--' inside a comment", pos);
      current?.append(new XmlComment(comment));
    } else if (cdata !== undefined) {
      if (current === null) fail("CDATA outside the root element", pos);
      current?.append(new XmlText(cdata, true));
    } else if (piTarget !== undefined) {
      if (piTarget.toLowerCase() === "xml") {
        if (pos !== 0) fail("XML declaration not at the start", pos);
      } else if (current !== null) {
        current.append(new XmlProcessingInstruction(piTarget, (piData ?? "").replace(/^[ \t\n]+/, "")));
      }
    } else if (endName !== undefined) {
      if (current === null || current.tagName !== endName) fail(`end tag </${endName}> does not close the open element`, pos);
      current = (current as XmlElement).parentNode;
    } else if (startName !== undefined) {
      if (current === null && root !== null) fail("a second root element", pos);
      const el = openElement(startName, rawAttributes ?? "", current, pos);
      if (current === null) root = el;
      else current.append(el);
      if (selfClosing !== "/") current = el;
    }
    pos += whole.length;
  }
  if (current !== null) fail(`element <${current.tagName}> is not closed`, text.length);
  if (root === null) fail("no root element", 0);
  return { documentElement: root as XmlElement };
}
