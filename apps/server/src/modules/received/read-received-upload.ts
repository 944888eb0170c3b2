/**
 * The three shapes of `POST /received` (API.md §12): raw `application/xml` / `text/xml`, multipart field `file`
 * (and optional `reply_to`), or JSON `{ xml, reply_to? }`. JSON text is encoded as UTF-8 behind a BOM, so the
 * verifier decodes it back as sent whatever its declaration says.
 */
import { RawBody } from "../../http/body.js";
import { ApiError, validationError } from "../../http/errors.js";
import { assertValid, unknownFormFields } from "../../http/validation.js";
import { cafTextBytes } from "../numerations/read-caf-upload.js";
import { ImportJsonBody } from "./schemas.js";

const XML_TYPES = /^(application|text)\/xml$/i;

export interface ReceivedUpload {
  bytes: Uint8Array;
  replyTo: string | null;
  filename: string | null;
}

/** Text given in JSON or a form field, as bytes that decode to the same text. */
const textBytes = cafTextBytes;

export async function readReceivedUpload(body: unknown): Promise<ReceivedUpload> {
  if (body instanceof RawBody) {
    const type = body.contentType.split(";")[0]?.trim() ?? "";
    if (XML_TYPES.test(type)) return { bytes: body.bytes, replyTo: null, filename: null };
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "send the envelope as application/xml, multipart/form-data (file) or JSON { xml }", { content_type: type });
  }
  if (body instanceof FormData) {
    const file = body.get("file");
    const replyTo = body.get("reply_to");
    const unknown = unknownFormFields(body, ["file", "reply_to"]);
    if (file === null || unknown.length > 0) throw validationError([...(file === null ? [{ path: "file", reason: "required" as const, message: "is required" }] : []), ...unknown]);
    const bytes = typeof file === "string" ? textBytes(file) : new Uint8Array(await file.arrayBuffer());
    return { bytes, replyTo: typeof replyTo === "string" && replyTo !== "" ? replyTo : null, filename: typeof file === "string" ? null : file.name || null };
  }
  const json = assertValid(ImportJsonBody, body);
  return { bytes: textBytes(json.xml), replyTo: json.reply_to ?? null, filename: null };
}
