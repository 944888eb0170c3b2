/** Signing certificates: PKCS#12 loading (forge, then pkijs), holder RUT, validity. */
export type { LoadedCertificate, CertificateSummary } from "./types.js";
export { loadPkcs12 } from "./load-pkcs12.js";
export { checkCertificateValidity, certificateSummary, type CertificateValidity } from "./check-validity.js";
export { rutFromSubjectAltName, RUT_OTHER_NAME_OID } from "./holder-rut.js";
export { RSA_KEY_BITS } from "./load-pkcs12.js";
export { MAX_PKCS12_ITERATIONS, MAX_PKCS12_TOTAL_ITERATIONS } from "./derivation-budget.js";
export { checkPkcs12Derivations } from "./pkcs12-derivations.js";
