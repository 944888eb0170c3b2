/**
 * The production adapter of the certificate port: `loadPkcs12` from `@timbre/core/certificates`, on reading
 * threads with a time limit (`certificate-threads.ts`).
 */
import { certificateThreads } from "./certificate-threads.js";
import type { CertificateLoader } from "./certificate-loader.js";

export const defaultCertificateLoader: CertificateLoader = certificateThreads();
