/**
 * ISO-8859-1 helpers private to the CAF area (the XML area has its own public ones).
 *
 * Decoding is done byte → code point by hand on purpose: WHATWG `TextDecoder("latin1")` is really windows-1252
 * and remaps bytes 0x80–0x9F (0x80 → "€"), which would not encode back to the same bytes and would break the
 * signature over `DA`.
 */
import { TimbreError } from "../errors/index.js";

const CHUNK = 0x8000;

/** True ISO-8859-1 decoding: every byte becomes the code point of the same value. */
export function decodeIso88591(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return out;
}

/** Encodes text as ISO-8859-1; throws `CAF_INVALID` (reason `charset`) on a code point above U+00FF. */
export function encodeIso88591(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) {
      throw new TimbreError("CAF_INVALID", `character U+${code.toString(16).toUpperCase().padStart(4, "0")} is not ISO-8859-1`, {
        details: { reason: "charset" },
      });
    }
    out[i] = code;
  }
  return out;
}

/**
 * Text of a CAF or DTE file given as bytes: ISO-8859-1 unless the file starts with a UTF-8 BOM or declares
 * `encoding="UTF-8"` (a CAF re-saved by an editor).
 */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(3));
  }
  const head = decodeIso88591(bytes.subarray(0, 200));
  if (/^<\?xml[^>]*encoding\s*=\s*["']utf-?8["']/i.test(head)) {
    return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  }
  return decodeIso88591(bytes);
}
