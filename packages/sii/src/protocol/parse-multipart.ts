import { latin1Decode } from "./bytes.js";

/** One part of a multipart body, in the order it was sent. */
export interface MultipartPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  bytes: Uint8Array;
}

/** First position of `needle` in `haystack` at or after `from`, -1 when absent (native search). */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(needle, from);
}

/**
 * Splits a `multipart/form-data` body into its parts, keeping each part's exact bytes and the order.
 * Returns `null` when the content type has no boundary or the body is malformed.
 *
 * @example
 * parseMultipart(bodyBytes, "multipart/form-data; boundary=xyz")?.map((p) => p.name);
 */
export function parseMultipart(body: Uint8Array, contentType: string | null): MultipartPart[] | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  const value = boundary?.[1] ?? boundary?.[2];
  if (value === undefined) return null;
  const delimiter = new TextEncoder().encode(`--${value}`);
  const parts: MultipartPart[] = [];
  let pos = indexOf(body, delimiter, 0);
  if (pos < 0) return null;
  for (;;) {
    const afterDelimiter = pos + delimiter.length;
    if (body[afterDelimiter] === 0x2d && body[afterDelimiter + 1] === 0x2d) return parts; // closing "--"
    const headerStart = afterDelimiter + 2; // CRLF
    const headerEnd = indexOf(body, new Uint8Array([13, 10, 13, 10]), headerStart);
    if (headerEnd < 0) return null;
    const next = indexOf(body, delimiter, headerEnd + 4);
    if (next < 0) return null;
    const headers = latin1Decode(body.subarray(headerStart, headerEnd));
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return null;
    parts.push({
      name,
      filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null,
      contentType: /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim() ?? null,
      bytes: body.subarray(headerEnd + 4, next - 2), // minus the CRLF before the delimiter
    });
    pos = next;
  }
}
