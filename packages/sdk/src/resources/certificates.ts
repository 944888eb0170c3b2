import type { RequestOptions } from "../transport.js";
import type { Business, CertificateUploadParams, WithLastResponse } from "../types.js";
import { Resource, seg } from "./resource.js";

/** `POST /businesses/{id}/certificate`: the business's signing certificate (PKCS#12). */
export class Certificates extends Resource {
  /**
   * Uploads a .p12/.pfx as multipart; the password is used once to open it and never stored.
   * Answers the business with its `certificate` summary.
   *
   * @example
   * const business = await client.businesses.certificate.upload({
   *   id: "biz_…",
   *   file: await readFile("firma.p12"),
   *   password: process.env.P12_PASSWORD!,
   * });
   * console.log(business.certificate?.valid_to);
   */
  upload({ id, file, password, filename }: CertificateUploadParams, options?: RequestOptions): Promise<WithLastResponse<Business>> {
    const form = new FormData();
    form.append("file", new Blob([file as BlobPart], { type: "application/x-pkcs12" }), filename ?? "certificate.p12");
    form.append("password", password);
    return this.call({ method: "POST", path: `businesses/${seg(id)}/certificate`, body: form, options });
  }
}
