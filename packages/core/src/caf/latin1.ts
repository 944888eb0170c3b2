/**
 * ISO-8859-1 for the CAF area, over the XML area's exact Latin-1 codec.
 *
 * Never WHATWG `TextDecoder("latin1")`: it is really windows-1252 and remaps bytes 0x80–0x9F (0x80 → "€"), which
 * would not encode back to the same bytes and would break the signature over `DA`.
 */
import { isTimbreError, TimbreError } from "../errors/index.js";
import { decodeLatin1, encodeLatin1 } from "../xml/latin1.js";

/** Encodes text as ISO-8859-1; throws `CAF_INVALID` (reason `charset`) on a code point above U+00FF. */
export function encodeIso88591(text: string): Uint8Array {
  try {
    return encodeLatin1(text);
  } catch (error) {
    if (isTimbreError(error, "CHARSET")) throw new TimbreError("CAF_INVALID", error.message, { details: { reason: "charset" }, cause: error });
    throw error;
  }
}

/**
 * Text of a CAF or DTE file given as bytes: ISO-8859-1 unless the file starts with a UTF-8 BOM or declares
 * `encoding="UTF-8"` (a CAF re-saved by an editor).
 */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(3));
  }
  const head = decodeLatin1(bytes.subarray(0, 200));
  if (/^<\?xml[^>]*encoding\s*=\s*["']utf-?8["']/i.test(head)) {
    return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  }
  return decodeLatin1(bytes);
}
