/**
 * The three accepted shapes of a CAF upload (API.md §6.4): multipart field `file`, a raw `application/xml` /
 * `text/xml` body, or JSON `{ caf_xml }`. Anything else → 415. The result is the file's bytes; JSON text is
 * encoded as UTF-8 behind a BOM, so that `parseCaf` (ISO-8859-1 unless BOM/declaration) reads it back as sent.
 */
import { RawBody } from "../../http/body.js";
import { ApiError, validationError } from "../../http/errors.js";
import { assertValid, unknownFormFields } from "../../http/validation.js";
import { CafJsonBody } from "./schemas.js";

const XML_TYPES = /^(application|text)\/xml$/i;
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

export async function readCafUpload(body: unknown): Promise<Uint8Array> {
  if (body instanceof RawBody) {
    const type = body.contentType.split(";")[0]?.trim() ?? "";
    if (XML_TYPES.test(type)) return body.bytes;
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "send the CAF as multipart/form-data (file), application/xml or JSON { caf_xml }", {
      content_type: type,
    });
  }
  if (body instanceof FormData) return fromForm(body);
  return cafTextBytes(assertValid(CafJsonBody, body).caf_xml);
}

/** CAF text (e.g. from JSON or from `issueCaf`) as file bytes that decode back to the same text. */
export function cafTextBytes(text: string): Uint8Array {
  const utf8 = new TextEncoder().encode(text.replace(/^\uFEFF/, ""));
  const out = new Uint8Array(BOM.length + utf8.length);
  out.set(BOM);
  out.set(utf8, BOM.length);
  return out;
}

async function fromForm(form: FormData): Promise<Uint8Array> {
  const file = form.get("file");
  const unknown = unknownFormFields(form, ["file"]);
  if (file === null || unknown.length > 0) throw validationError([...(file === null ? [{ path: "file", reason: "required" as const, message: "is required" }] : []), ...unknown]);
  if (typeof file === "string") return cafTextBytes(file);
  return new Uint8Array(await file.arrayBuffer());
}
