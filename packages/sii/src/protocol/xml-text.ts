/**
 * Tiny, dependency-free readers for the SII's small flat answers, by local name (any or no prefix). Not a general
 * XML parser: elements of the same name must not nest (true for every SII answer).
 */

const NAME_PREFIX = "(?:[A-Za-z_][\\w.-]*:)?";

/** Compiled patterns by local name: the sandbox reads some twenty names from every DTE it receives. */
const PATTERNS = new Map<string, RegExp>();

/**
 * The element pattern of a local name (global: use it with `matchAll`, which works on a copy of it, or `exec` from
 * `lastIndex` 0, put back after).
 */
function elementPattern(localName: string): RegExp {
  let pattern = PATTERNS.get(localName);
  if (pattern === undefined) {
    pattern = new RegExp(
      `<${NAME_PREFIX}${localName}(?=[\\s/>])([^>]*?)(?:/>|>([\\s\\S]*?)</${NAME_PREFIX}${localName}\\s*>)`,
      "g",
    );
    if (PATTERNS.size < 256) PATTERNS.set(localName, pattern);
  }
  return pattern;
}

/**
 * Escapes text for XML content and attribute values.
 *
 * @example
 * escapeXml('a<b & "c"'); // "a&lt;b &amp; &quot;c&quot;"
 */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/**
 * Resolves the predefined and numeric character references; a CDATA section is returned verbatim.
 *
 * @example
 * unescapeXml("&lt;a&gt;&#233;"); // "<a>é"
 */
export function unescapeXml(text: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(text);
  if (cdata?.[1] !== undefined) return cdata[1];
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|quot|apos|amp);/g, (_, ref: string) => {
    if (ref === "lt") return "<";
    if (ref === "gt") return ">";
    if (ref === "quot") return '"';
    if (ref === "apos") return "'";
    if (ref === "amp") return "&";
    const code = ref.startsWith("#x") ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

/** One element found by {@link findElements}: raw attributes text and raw (still escaped) inner content. */
export interface RawElement {
  attributes: string;
  inner: string;
}

/**
 * Every element with this local name, in document order.
 *
 * @example
 * findElements("<a:X>1</a:X><X/>", "X").length; // 2
 */
export function findElements(xml: string, localName: string): RawElement[] {
  return Array.from(xml.matchAll(elementPattern(localName)), rawElement);
}

/** An `elementPattern` match as a `RawElement`. */
const rawElement = (match: RegExpMatchArray): RawElement => ({ attributes: match[1] ?? "", inner: match[2] ?? "" });

/**
 * The first element with this local name, or `undefined`: the text after it is not read (an envelope's carátula
 * comes before its documents).
 *
 * @example
 * firstElement("<X a='1'>2</X><X>3</X>", "X")?.inner; // "2"
 */
export function firstElement(xml: string, localName: string): RawElement | undefined {
  const pattern = elementPattern(localName);
  pattern.lastIndex = 0;
  const match = pattern.exec(xml);
  pattern.lastIndex = 0;
  return match === null ? undefined : rawElement(match);
}

/**
 * Unescaped, trimmed text of the first element with this local name, or `null`.
 *
 * @example
 * elementText("<R><SII:ESTADO> 00 </SII:ESTADO></R>", "ESTADO"); // "00"
 */
export function elementText(xml: string, localName: string): string | null {
  const first = firstElement(xml, localName);
  return first === undefined ? null : unescapeXml(first.inner).trim();
}

/**
 * Unescaped texts of every element with this local name.
 *
 * @example
 * elementTexts("<E>a</E><E>b</E>", "E"); // ["a", "b"]
 */
export function elementTexts(xml: string, localName: string): string[] {
  return findElements(xml, localName).map((e) => unescapeXml(e.inner).trim());
}

/**
 * The leaf elements (`<NAME>text</NAME>`) of a fragment in document order, as `[localName, text]` pairs.
 *
 * @example
 * leafElements("<A>1</A><B>2</B>"); // [["A","1"],["B","2"]]
 */
export function leafElements(xml: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const re = new RegExp(`<${NAME_PREFIX}([A-Za-z_][\\w.-]*)(?:\\s[^>]*)?>([^<]*)</${NAME_PREFIX}\\1\\s*>`, "g");
  for (const match of xml.matchAll(re)) {
    out.push([match[1] ?? "", unescapeXml(match[2] ?? "").trim()]);
  }
  return out;
}

/**
 * Whether a body is an HTML page (the SII answers HTML with HTTP 200 when not authenticated or overloaded).
 *
 * @example
 * looksLikeHtml("<!DOCTYPE html><html>…"); // true
 */
export function looksLikeHtml(body: string, contentType?: string | null): boolean {
  if (contentType !== undefined && contentType !== null && /text\/html/i.test(contentType)) return true;
  return /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(body);
}
