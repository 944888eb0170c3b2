/** The production adapter of the certificate port: `loadPkcs12` from `@timbre/core/certificates`. */
import type { CertificateLoader } from "./certificate-loader.js";
import { ApiError } from "../../http/errors.js";

export const defaultCertificateLoader: CertificateLoader = {
  load() {
    throw new ApiError("INTERNAL_ERROR", "certificate support is not available yet");
  },
};
