export { verifyDte } from "./verify-dte.js";
export { verifyEnvelope } from "./verify-envelope.js";
export { verifyTed } from "./verify-ted.js";
export type { DocumentVerification, VerifyResult } from "./verify-result.js";
export type { VerifyOptions } from "./verify-xmldsig.js";
