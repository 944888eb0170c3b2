/** CAF (Código de Autorización de Folios): safe parsing, SII signature and key checks, expiry, issuing. */
export type { Caf, EmbeddedCaf, AuthorityKey } from "./types.js";
export { parseCaf, parseEmbeddedCaf } from "./parse-caf.js";
export { verifyCaf, verifyCafSignature, authorityKeyFromPem } from "./verify-caf.js";
export { cafExpiresOn, isCafExpired, EXPIRING_CAF_TIPOS, CAF_VALIDITY_MONTHS } from "./expiry.js";
export { issueCaf, type IssueCafInput } from "./issue-caf.js";
