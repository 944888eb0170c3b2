import { decodeLatin1 } from "@timbre/core/xml";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes an SII answer: UTF-8 when the bytes are valid UTF-8, else ISO-8859-1 (the SII declares UTF-8 but
 * sometimes sends Latin-1 bytes).
 *
 * @example
 * decodeSiiBytes(new Uint8Array([0x43, 0xe9])); // "Cé" (Latin-1 fallback)
 */
export function decodeSiiBytes(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1Decode(bytes);
  }
}

/**
 * ISO-8859-1 bytes → string (each byte is one code point); core's native codec.
 *
 * @example
 * latin1Decode(new Uint8Array([0xf1])); // "ñ"
 */
export const latin1Decode: (bytes: Uint8Array) => string = decodeLatin1;

/**
 * String → ISO-8859-1 bytes; characters above U+00FF become `?` (callers sanitise beforehand).
 *
 * @example
 * latin1Encode("ñ"); // Uint8Array [0xf1]
 */
export function latin1Encode(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[i] = code > 0xff ? 0x3f : code;
  }
  return out;
}

/**
 * Concatenates byte arrays.
 *
 * @example
 * concatBytes([new Uint8Array([1]), new Uint8Array([2])]); // [1, 2]
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
