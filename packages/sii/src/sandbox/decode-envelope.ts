import { latin1Decode } from "../protocol/bytes.js";

/**
 * Decodes an uploaded envelope by its XML declaration (ISO-8859-1 unless it declares UTF-8).
 *
 * @example
 * decodeEnvelope(bytes).startsWith("<?xml"); // true
 */
export function decodeEnvelope(bytes: Uint8Array): string {
  const head = latin1Decode(bytes.subarray(0, 100));
  const encoding = /^\uFEFF?<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1];
  if (encoding !== undefined && /^utf-?8$/i.test(encoding)) return new TextDecoder("utf-8").decode(bytes);
  return latin1Decode(bytes);
}
