/** Document lifecycle: the state table and the mapping of SII answers to states. */
export {
  DOCUMENT_STATES,
  FINAL_STATES,
  TRANSITIONS,
  canTransition,
  isDocumentState,
  isFinalState,
  transition,
  type DocumentState,
} from "./states.js";
export { stateFromUploadStatus, type UploadVerdict } from "./upload-status.js";
export { stateFromEnvelopeStatus, type EnvelopeCounts, type EnvelopeStatusInput, type EnvelopeVerdict } from "./envelope-status.js";
export { stateFromDocumentStatus, type DocumentVerdict } from "./document-status.js";
