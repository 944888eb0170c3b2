/** A local SII for development and tests: same paths and message shapes as the SII. */
export { createSandbox, type Sandbox, type SandboxAuthority, type SandboxCafInput, type SandboxOptions } from "./sandbox.js";
export type { FaultMode, FaultSpec, FaultInjector } from "./faults.js";
export type { EnvelopeRecord, EnvelopeFinal } from "./envelopes.js";
export type { DocumentOutcome, ReceiverEventRecord, RegisteredDocument } from "./registry.js";
export type { DteReference } from "./read-envelope.js";
export { buildResultadoEnvio, resultMailOf, type ResultMailOption, type SiiResultMail } from "./result-mail.js";
