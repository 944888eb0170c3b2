import { concatBytes } from "./bytes.js";

/** The file part of a multipart body. */
export interface MultipartFile {
  name: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * Builds a `multipart/form-data` body as bytes, fields first in the given order then the file, so the file bytes
 * are sent exactly (no re-encoding) and the length is known (explicit Content-Length, no chunking).
 *
 * @example
 * const { body, contentType } = buildMultipart([["rutSender", "11111111"]], { name: "archivo", filename: "envio.xml", contentType: "text/xml", bytes });
 */
export function buildMultipart(
  fields: ReadonlyArray<readonly [string, string]>,
  file: MultipartFile,
  boundary = `----TimbreBoundary${crypto.randomUUID().replace(/-/g, "")}`,
): { body: Uint8Array; contentType: string; boundary: string } {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const [name, value] of fields) {
    parts.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
    ),
  );
  parts.push(file.bytes);
  parts.push(enc.encode(`\r\n--${boundary}--\r\n`));
  return { body: concatBytes(parts), contentType: `multipart/form-data; boundary=${boundary}`, boundary };
}
