/** The production adapter of the certificate port: `loadPkcs12` from `@timbre/core/certificates`. */
import { loadPkcs12 } from "@timbre/core/certificates";
import type { CertificateLoader } from "./certificate-loader.js";

export const defaultCertificateLoader: CertificateLoader = { load: (bytes, password) => loadPkcs12(bytes, password) };
