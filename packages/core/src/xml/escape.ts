/**
 * Text escaping in the two forms a signed DTE needs. The file form is what we write; the canonical form is what
 * C14N 1.0 renders for the same parsed text, and what digests are computed over.
 *
 * File form: `&amp; &lt; &gt; &quot; &apos;` (the TED/DD convention LibreDTE uses, kept identical in the body) and
 * `&#xD;` for CR (a literal CR would be normalized away by any parser). Canonical form: `& < >` and CR only.
 */

const FILE_SPECIAL = /[&<>"'\r]/;
const FILE_SPECIAL_ALL = /[&<>"'\r]/g;
const C14N_TEXT_SPECIAL = /[&<>\r]/;
const C14N_TEXT_SPECIAL_ALL = /[&<>\r]/g;
const C14N_ATTR_SPECIAL_ALL = /[&<"\t\n\r]/g;

const FILE_MAP: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\r": "&#xD;",
};

const C14N_TEXT_MAP: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#xD;" };

const C14N_ATTR_MAP: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  '"': "&quot;",
  "\t": "&#x9;",
  "\n": "&#xA;",
  "\r": "&#xD;",
};

/**
 * Escapes element text the way Timbre writes it into DTE files (and into the TED's `DD`).
 *
 * @example
 * escapeText(`Cajón "Grande" & tapa`) // "Cajón &quot;Grande&quot; &amp; tapa"
 */
export function escapeText(text: string): string {
  return FILE_SPECIAL.test(text) ? text.replace(FILE_SPECIAL_ALL, (c) => FILE_MAP[c] ?? c) : text;
}

/**
 * Escapes element text as C14N 1.0 renders it.
 *
 * @example
 * escapeC14nText(`a "b" & <c>\r`) // `a "b" &amp; &lt;c&gt;&#xD;`
 */
export function escapeC14nText(text: string): string {
  return C14N_TEXT_SPECIAL.test(text) ? text.replace(C14N_TEXT_SPECIAL_ALL, (c) => C14N_TEXT_MAP[c] ?? c) : text;
}

/**
 * Escapes an attribute value as C14N 1.0 renders it.
 *
 * @example
 * escapeC14nAttr(`a"b\tc`) // "a&quot;b&#x9;c"
 */
export function escapeC14nAttr(value: string): string {
  return value.replace(C14N_ATTR_SPECIAL_ALL, (c) => C14N_ATTR_MAP[c] ?? c);
}
