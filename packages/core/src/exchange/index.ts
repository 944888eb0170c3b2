/** Intercambio: the receiver's answers (acuse, commercial result, Ley 19.983 receipt) and verifying what suppliers send. */
export { isXmlAnswerable, XML_ANSWERABLE_TIPOS, type AnsweredDocument, type AnswerContact } from "./answer-fields.js";
export {
  buildRecepcionEnvio,
  buildResultadoDte,
  ESTADO_RECEP_DTE_GLOSA,
  ESTADO_RECEP_ENV_GLOSA,
  type BuildRespuestaOptions,
  type EstadoDte,
  type EstadoRecepDte,
  type EstadoRecepEnv,
  type RecepcionDte,
  type RecepcionEnvio,
  type RespuestaCaratula,
  type ResultadoDte,
} from "./build-respuesta.js";
export { buildEnvioRecibos, DECLARACION_RECIBO, type BuildEnvioRecibosOptions, type Recibo } from "./build-recibos.js";
export {
  cleanForSchema,
  verifyReceivedEnvelope,
  type EnvelopeFailure,
  type ReceivedCaratula,
  type ReceivedDte,
  type ReceivedEnvelopeResult,
  type ReceivedVerification,
  type SignatureVariant,
  type VerifyReceivedOptions,
} from "./verify-received.js";
export type { ReceivedDocumentFields, ReceivedLine, ReceivedReference } from "./read-received-document.js";
export { printableReceived } from "./printable-received.js";
/** Decodes XML bytes per their declaration (ISO-8859-1 byte for byte, windows-1252, UTF-8 by default). */
export { decodeXml } from "../signature/verify-xml.js";
export { verifyReceiverAnswer, type AnswerFailure, type AnswerKind, type AnsweredEntry, type VerifiedAnswer } from "./verify-answer.js";
export { readSiiResult, type SiiResult, type SiiResultRevision } from "./read-sii-result.js";
