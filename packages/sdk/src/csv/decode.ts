/**
 * The text of a file a spreadsheet saved. Excel in Chile saves "CSV (delimitado por comas)" in Windows-1252, while
 * LibreOffice, Google Sheets and Numbers save UTF-8 (sometimes with a byte-order mark): UTF-8 is tried first and the
 * bytes are read as Windows-1252 only when they are not valid UTF-8, so `Ñuñoa` survives either way.
 */

/** Windows-1252's 0x80–0x9F, where it differs from ISO-8859-1 (undefined bytes keep their C1 code point). */
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";

export function decodeText(bytes: Uint8Array): string {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    let text = "";
    for (const byte of body) text += byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
    return text;
  }
}
