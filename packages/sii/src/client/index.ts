/** The SII client: SOAP seed/token, DTEUpload, QueryEstUp, QueryEstDte, boleta REST, registry of acceptances/claims. */
export { SiiClient, type SiiClientOptions, type UploadStatusQuery, type BoletaUploadMode } from "./sii-client.js";
export type { SiiIdentity, SigningIdentity, SeedSigner } from "./context.js";
export { SiiAuthError, SiiError, SiiRefusedError, SiiTransientError, type TransientReason } from "./errors.js";
export type { UploadInput, UploadResult, UploadChannel } from "./upload.js";
export type { EnvelopeStatus, EnvelopeStatusQuery } from "./envelope-status.js";
export type { DocumentStatus, DocumentStatusQuery } from "./document-status.js";
export { toDdMmAaaa } from "./document-status.js";
export type { TipoCounts } from "./parse-est-up.js";
export type { DocumentVerdict } from "./parse-boleta.js";
export type { LifecycleState, EnvelopeVerdict } from "./envelope-state.js";
export { parseRecepcionDte, type RecepcionDte } from "./parse-recepcion.js";
export { parseEstUpAnswer, type EstUpAnswer } from "./parse-est-up.js";
export { parseEstDteAnswer, type EstDteAnswer } from "./parse-est-dte.js";
export { parseSeedAnswer, parseTokenAnswer } from "./parse-auth.js";
export { parseBoletaStatus, parseBoletaUpload } from "./parse-boleta.js";
export type { TokenKind } from "./token-cache.js";
export type {
  ReceiverAction,
  ReceiverDocumentQuery,
  ReceiverEvent,
  ReceiverEvents,
  ReceiverRegistryAnswer,
} from "./receiver-registry.js";
export {
  normalizeSiiDateTime,
  parseReceiverEvents,
  parseReceptionDate,
  parseRegistryAnswer,
  readRegistryReturn,
  type RegistryHttpAnswer,
} from "./parse-receiver-registry.js";
/** The registry answers in Chile's wall time (`ReceiverEvent.fecha`, reception dates): to and from instants. */
export { chileLocalTime, instantOfChileTime } from "../protocol/chile-time.js";
