/**
 * Writes XML twice in one pass: the file form (what goes into the DTE text) and its C14N 1.0 form (what the
 * digest is computed over). They differ only in text escaping (see escape.ts) and in the namespace declarations
 * the caller writes on the apex element. Elements are never self-closed, attributes are written in canonical order
 * by the callers, so no general canonicalizer runs on the hot path.
 */
import { escapeC14nText, escapeText } from "./escape.js";

export class DualWriter {
  file = "";
  canonical = "";

  /** Appends markup that is identical in both forms (tags, numbers, base64). */
  raw(markup: string): this {
    this.file += markup;
    this.canonical += markup;
    return this;
  }

  /** Appends markup that differs between the two forms. */
  pair(file: string, canonical: string): this {
    this.file += file;
    this.canonical += canonical;
    return this;
  }

  /** `<tag>text</tag>` with each form's escaping. */
  text(tag: string, value: string): this {
    const file = escapeText(value);
    const canonical = escapeC14nText(value);
    this.file += `<${tag}>${file}</${tag}>`;
    this.canonical += `<${tag}>${canonical}</${tag}>`;
    return this;
  }

  /** `<tag>text</tag>` only when the value is a non-empty string. */
  optText(tag: string, value: string | undefined | null): this {
    return value === undefined || value === null || value === "" ? this : this.text(tag, value);
  }

  /** `<tag>value</tag>` for numbers and other values that never need escaping. */
  value(tag: string, value: string | number): this {
    return this.raw(`<${tag}>${value}</${tag}>`);
  }
}
