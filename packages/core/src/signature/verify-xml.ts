/** Small tree helpers for the verifiers: exact decoding, child and descendant lookup. Internal. */
import { decodeLatin1 } from "../xml/latin1.js";
import type { XmlDocument, XmlElement } from "./xml-tree.js";

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

/** Element children of `parent`, in order. */
export function childElements(parent: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = parent.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === 1) out.push(n);
  }
  return out;
}

/**
 * Calls `visit` on every descendant element of `parent`, in document order, walking the nodes themselves: the
 * verifiers walk whole envelopes several times, and a list of every element per walk was a twentieth of the
 * sandbox SII's CPU (bench/RESULTS.md §6, "eighth session").
 */
function eachDescendant(parent: XmlElement, visit: (el: XmlElement) => void): void {
  for (let n = parent.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    visit(n);
    eachDescendant(n, visit);
  }
}

/** Descendant elements of `parent` with this namespace and local name, in document order. */
export function descendantsNamed(parent: XmlElement, namespaceURI: string | null, localName: string): XmlElement[] {
  const out: XmlElement[] = [];
  eachDescendant(parent, (e) => {
    if (e.localName === localName && e.namespaceURI === namespaceURI) out.push(e);
  });
  return out;
}

/** Element children with the given local name. */
export function childrenNamed(parent: XmlElement, localName: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = parent.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === 1 && n.localName === localName) out.push(n);
  }
  return out;
}

/** The single child with this local name, or null when absent or repeated. */
export function onlyChild(parent: XmlElement, localName: string): XmlElement | null {
  let found: XmlElement | null = null;
  for (let n = parent.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType !== 1 || n.localName !== localName) continue;
    if (found !== null) return null;
    found = n;
  }
  return found;
}

/** Trimmed text of the single child `path` (e.g. `["Encabezado","IdDoc","Folio"]`), or null. */
export function childText(parent: XmlElement, path: string[]): string | null {
  let current: XmlElement | null = parent;
  for (const name of path) {
    if (current === null) return null;
    current = onlyChild(current, name);
  }
  return current === null ? null : (current.textContent ?? "").trim();
}

/** The attribute names the verifiers take for an element's ID (what a Reference's `#…` URI points at). */
export const isIdAttributeName = (name: string): boolean => name === "ID" || name === "Id" || name === "id";

/** Whether `el` carries an `ID`, `Id` or `id` attribute equal to `value`. */
function hasId(el: XmlElement, value: string): boolean {
  for (const a of el.attributes) if (a.value === value && isIdAttributeName(a.name)) return true;
  return false;
}

/**
 * Every element of the document carrying an `ID`, `Id` or `id` attribute equal to `value`, in document order.
 */
export function elementsWithId(doc: XmlDocument, value: string): XmlElement[] {
  const root = doc.documentElement;
  const out = hasId(root, value) ? [root] : [];
  eachDescendant(root, (el) => {
    if (hasId(el, value)) out.push(el);
  });
  return out;
}

/** Error message of an unknown thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
