/** Dictionaries of SII codes with the SII's text and Spanish hints. */
export type { SiiCodeEntry, SiiCodeInfo, SiiCodeSource } from "./types.js";
export { UPLOAD_STATUS, uploadStatusInfo, type UploadStatusEntry, type UploadStatusKind } from "./upload-status.js";
export {
  ENVELOPE_STATES,
  envelopeStateInfo,
  type EnvelopeStateEntry,
  type EnvelopeStateKind,
} from "./envelope-states.js";
export { DOCUMENT_STATES, documentStateInfo, type DocumentStateEntry } from "./document-states.js";
export { TOKEN_STATES } from "./token-states.js";
export { DOCUMENT_CODES, codeLevel, normalizeDocumentCode } from "./document-codes.js";
export {
  RECEIVER_EVENT_CODES,
  RECEIVER_REGISTRY_CODES,
  RECEIVER_WINDOW_MS,
  isAcceptanceEvent,
  isClaimEvent,
  receiverRegistryCodeInfo,
  receiverRegistryDescription,
  type ReceiverEventCode,
} from "./receiver-registry.js";
export { describeSiiCode, type SiiCodeContext } from "./describe.js";
