/** Test helpers (subpath `@timbre/core/testing`): certificates and CAF authorities for sandbox and tests. Pure. */
export { generateTestCertificate, type TestCertificate, type TestCertificateOptions } from "./generate-test-certificate.js";
export { generateAuthorityKey, type TestAuthorityKey } from "./generate-authority-key.js";
export { withMacIterations } from "./patch-pkcs12.js";
export { uncheckedEnvioDte, uncheckedSignedDte } from "./unchecked-xml.js";
