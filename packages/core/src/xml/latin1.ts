/** ISO-8859-1 (Latin-1) bytes ⇄ text, the encoding of every SII XML file. */
import { TimbreError } from "../errors/index.js";

const NOT_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * Encodes text as ISO-8859-1 bytes; throws `CHARSET` when a character has no Latin-1 code (never substitutes).
 *
 * @example
 * encodeLatin1("Año") // Uint8Array [0x41, 0xf1, 0x6f]
 */
export function encodeLatin1(text: string): Uint8Array {
  const bad = NOT_LATIN1.exec(text);
  if (bad) {
    throw new TimbreError("CHARSET", `character ${JSON.stringify(bad[0])} is not representable in ISO-8859-1`, {
      details: { index: bad.index, character: bad[0] },
    });
  }
  return new Uint8Array(Buffer.from(text, "latin1"));
}

/**
 * Decodes ISO-8859-1 bytes (every byte is one character; not windows-1252).
 *
 * @example
 * decodeLatin1(new Uint8Array([0x41, 0xf1, 0x6f])) // "Año"
 */
export function decodeLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}
