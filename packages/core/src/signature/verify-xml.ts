/** Small DOM helpers for the verifiers: exact decoding, strict parsing, child lookup. Internal. */
import { DOMParser, type Document, type Element } from "@xmldom/xmldom";
import { decodeLatin1 } from "../xml/latin1.js";

const DECLARED_ENCODING = /^\uFEFF?<\?xml[^>]*?encoding\s*=\s*["']([^"']+)["']/;

/**
 * Decodes XML bytes per their declaration: ISO-8859-1 byte for byte (TextDecoder's "latin1" is really
 * windows-1252), windows-1252 and UTF-8 (the default) with TextDecoder.
 */
export function decodeXml(input: string | Uint8Array): string {
  if (typeof input === "string") return input;
  const head = decodeLatin1(input.subarray(0, 200));
  const encoding = (DECLARED_ENCODING.exec(head)?.[1] ?? "utf-8").toLowerCase();
  if (/^(iso-?8859-1|iso_8859-1|latin-?1|l1)$/.test(encoding)) return decodeLatin1(input);
  return new TextDecoder(encoding, { fatal: true }).decode(input);
}

/** Parses XML text; refuses DTDs and anything the parser reports as an error. Throws `Error` with a message. */
export function parseXml(text: string): Document {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new Error("XML with a DOCTYPE/ENTITY declaration is refused");
  const problems: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") problems.push(message);
    },
  }).parseFromString(text, "text/xml");
  if (problems.length > 0 || doc.documentElement === null) {
    throw new Error(`malformed XML: ${problems[0] ?? "no root element"}`);
  }
  return doc;
}

/** Element children of `parent`, in order. */
export function childElements(parent: Element): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === 1) out.push(n as Element);
  }
  return out;
}

/** Element children with the given local name. */
export function childrenNamed(parent: Element, localName: string): Element[] {
  return childElements(parent).filter((e) => e.localName === localName);
}

/** The single child with this local name, or null when absent or repeated. */
export function onlyChild(parent: Element, localName: string): Element | null {
  const found = childrenNamed(parent, localName);
  return found.length === 1 ? (found[0] ?? null) : null;
}

/** Trimmed text of the single child `path` (e.g. `["Encabezado","IdDoc","Folio"]`), or null. */
export function childText(parent: Element, path: string[]): string | null {
  let current: Element | null = parent;
  for (const name of path) {
    if (current === null) return null;
    current = onlyChild(current, name);
  }
  return current === null ? null : (current.textContent ?? "").trim();
}

const ID_ATTRIBUTES = ["ID", "Id", "id"];

/**
 * Every element of the document carrying an `ID`, `Id` or `id` attribute equal to `value`, in document order.
 * A plain walk over the tree: xmldom's `getElementsByTagName("*")` builds a live list (a second walk plus its
 * bookkeeping), which was about 8 % of the sandbox SII's sampled CPU under load.
 */
export function elementsWithId(doc: Document, value: string): Element[] {
  const out: Element[] = [];
  const pending = doc.documentElement ? [doc.documentElement] : [];
  while (pending.length > 0) {
    const el = pending.pop() as Element;
    if (ID_ATTRIBUTES.some((name) => el.getAttribute(name) === value)) out.push(el);
    const children = childElements(el);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as Element);
  }
  return out;
}

/** Error message of an unknown thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
