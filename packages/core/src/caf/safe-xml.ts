/**
 * Safe parsing of untrusted XML (CAF files, DTEs): no DTD at all, so neither entity expansion ("billion laughs")
 * nor external entities can happen. The check runs on the raw text before any parser sees it.
 */
import { DOMParser, type Document, type Element } from "@xmldom/xmldom";
import { TimbreError } from "../errors/index.js";

/** Largest XML accepted here. A CAF is ~2 KB, a DTE ~10 KB; this bounds parser work. */
export const MAX_XML_CHARS = 2_000_000;

/** Throws `CAF_UNSAFE_XML` when the text declares a DTD or an entity, `CAF_INVALID` when it is absurd. */
export function assertSafeXml(text: string): void {
  if (text.length > MAX_XML_CHARS) {
    throw new TimbreError("CAF_INVALID", `XML too large (${text.length} characters)`, { details: { reason: "too_large" } });
  }
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new TimbreError("CAF_UNSAFE_XML", "XML with a DOCTYPE or ENTITY declaration is refused", {
      details: { reason: "dtd" },
    });
  }
  if (text.includes("\u0000")) {
    throw new TimbreError("CAF_INVALID", "XML contains NUL characters (UTF-16 or binary file?)", {
      details: { reason: "malformed" },
    });
  }
}

/** Parses checked text; any parser error or warning about well-formedness becomes `CAF_INVALID` (malformed). */
export function parseSafeXml(text: string): Document {
  assertSafeXml(text);
  let doc: Document;
  // The parser's own words ("missing root element"), not its wrapper's ("Reporting fatalError … caused Error: …").
  let problem: string | null = null;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level === "warning") return;
        problem ??= message;
        throw new Error(message);
      },
    }).parseFromString(text, "text/xml");
  } catch (cause) {
    throw new TimbreError("CAF_INVALID", `malformed XML: ${problem ?? (cause instanceof Error ? cause.message : String(cause))}`, {
      details: { reason: "malformed" },
      cause,
    });
  }
  if (!doc.documentElement) {
    throw new TimbreError("CAF_INVALID", "malformed XML: no root element", { details: { reason: "malformed" } });
  }
  return doc;
}

/** Element children of an element, in document order. */
export function childElements(parent: Element): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) out.push(n as Element);
  }
  return out;
}

/** First descendant (or self) whose local name is `name`, in document order, any namespace. */
export function findElement(root: Element, name: string): Element | null {
  if ((root.localName ?? root.nodeName) === name) return root;
  for (const child of childElements(root)) {
    const found = findElement(child, name);
    if (found) return found;
  }
  return null;
}
