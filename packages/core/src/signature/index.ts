export { verifyDte } from "./verify-dte.js";
export { verifyEnvelope } from "./verify-envelope.js";
export { verifyTed } from "./verify-ted.js";
export type { DocumentVerification, VerifyResult } from "./verify-result.js";
export type { VerifyOptions } from "./verify-xmldsig.js";
export { canonicalizeXml, type CanonicalizeOptions, type NamespaceMap } from "./canonical.js";
export { signReference, type SignReferenceOptions } from "./sign-reference.js";
export { renderSignedInfo, type SignedInfoOptions, type RenderedSignedInfo } from "./signed-info.js";
