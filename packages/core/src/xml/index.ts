export { validateDocument } from "./validate-document.js";
export { siiTextIssues, type TextRule } from "./check-field.js";
export { buildDocumento } from "./build-documento.js";
export { buildTed, type TedOptions } from "./build-ted.js";
export { buildSignedDte, type SignedDte, type SignedDteOptions } from "./build-signed-dte.js";
export { buildEnvelope, type EnvelopeDte, type EnvelopeKind, type EnvelopeOptions } from "./build-envelope.js";
export { signSeed } from "./sign-seed.js";
export { encodeLatin1, decodeLatin1 } from "./latin1.js";
