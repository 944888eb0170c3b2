/** The two accepted shapes of a certificate upload: multipart `file` + `password`, or JSON `{ pfx_base64, password }`. */
import type { ValidationIssue } from "@timbre/core/errors";
import { RawBody } from "../../http/body.js";
import { ApiError, validationError } from "../../http/errors.js";
import { assertValid, unknownFormFields } from "../../http/validation.js";
import { CertificateJsonBody } from "./schemas.js";

export interface CertificateUpload {
  bytes: Uint8Array;
  password: string;
}

export async function readCertificateUpload(body: unknown): Promise<CertificateUpload> {
  if (body instanceof RawBody) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "send multipart/form-data (file, password) or JSON { pfx_base64, password }", {
      content_type: body.contentType.split(";")[0],
    });
  }
  if (body instanceof FormData) return fromForm(body);
  const json = assertValid(CertificateJsonBody, body);
  const base64 = json.pfx_base64.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64)) {
    throw new ApiError("CERTIFICATE_INVALID", "pfx_base64 is not base64", { reason: "format" });
  }
  return { bytes: new Uint8Array(Buffer.from(base64, "base64")), password: json.password };
}

async function fromForm(form: FormData): Promise<CertificateUpload> {
  const file = form.get("file");
  const password = form.get("password");
  const issues: ValidationIssue[] = [];
  if (file === null) issues.push({ path: "file", reason: "required", message: "is required" });
  else if (typeof file === "string") issues.push({ path: "file", reason: "type", message: "must be a file" });
  if (password === null) issues.push({ path: "password", reason: "required", message: "is required" });
  else if (typeof password !== "string") issues.push({ path: "password", reason: "type", message: "must be text" });
  issues.push(...unknownFormFields(form, ["file", "password"]));
  if (issues.length > 0 || file === null || typeof file === "string" || typeof password !== "string") throw validationError(issues);
  return { bytes: new Uint8Array(await file.arrayBuffer()), password };
}
