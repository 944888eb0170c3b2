/**
 * The serialization the SII signs (`FRMA` over `DA`, `FRMT` over `DD`): the element as text with no whitespace
 * between tags, no namespace declarations, local names, attributes as written, text escaped `&amp; &lt; &gt;`
 * (BRIEF §4/§5). Text of leaf elements is kept untouched (the official example keeps a double space).
 */
import type { Element } from "@xmldom/xmldom";

/** Escapes element text the way the SII/LibreDTE serialization does. */
export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
}

/** Flattens an element (see module comment). Whitespace-only text nodes are dropped, like `>\s+<` → `><`. */
export function flattenElement(element: Element): string {
  const name = element.localName ?? element.nodeName;
  let out = `<${name}`;
  const attrs = element.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs.item(i);
    if (!attr) continue;
    if (attr.name === "xmlns" || attr.name.startsWith("xmlns:")) continue;
    out += ` ${attr.localName ?? attr.name}="${escapeAttribute(attr.value)}"`;
  }
  out += ">";
  for (let n = element.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) out += flattenElement(n as Element);
    else if (n.nodeType === 3 || n.nodeType === 4) {
      const text = n.nodeValue ?? "";
      if (text.trim() !== "") out += escapeText(text);
    }
  }
  return `${out}</${name}>`;
}
