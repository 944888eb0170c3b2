/** Spanish messages for API error codes and validation reasons; the server's own text is the fallback. */
import { ApiError } from "./api.js";

const BY_CODE: Record<string, string> = {
  NETWORK: "No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.",
  INVALID_CREDENTIALS: "Correo o contraseña incorrectos.",
  UNAUTHORIZED: "Tu sesión expiró. Vuelve a ingresar.",
  FORBIDDEN: "No tienes permiso para esta acción.",
  NOT_FOUND: "No encontramos lo que buscas (puede pertenecer a otra empresa o ambiente).",
  RATE_LIMITED: "Demasiadas solicitudes. Espera un momento y vuelve a intentarlo.",
  PAYLOAD_TOO_LARGE: "El archivo es demasiado grande (máximo 5 MiB).",
  UNSUPPORTED_MEDIA_TYPE: "Formato de archivo no aceptado.",
  VALIDATION_ERROR: "Revisa los campos marcados.",
  CERTIFICATE_REQUIRED: "La empresa no tiene certificado digital. Súbelo en la ficha de la empresa.",
  FOLIOS_EXHAUSTED: "No quedan folios disponibles para este tipo de documento. Sube un nuevo CAF.",
  BUSINESS_NOT_AUTHORIZED: "La empresa no tiene datos de resolución del SII para emitir en producción.",
  REFERENCE_INVALID: "La referencia del documento no es válida.",
  INTERNAL_ERROR: "Error interno del servidor. Inténtalo de nuevo más tarde.",
  UNAVAILABLE: "El servicio no está disponible en este momento.",
};

const CERTIFICATE_REASONS: Record<string, string> = {
  format: "El archivo no es un certificado PKCS#12 (.p12 / .pfx) válido.",
  password: "La contraseña del certificado no es correcta.",
  no_rsa_key: "El certificado no contiene una clave RSA.",
  expired: "El certificado está vencido.",
  not_yet_valid: "El certificado aún no es válido.",
  key_size: "La clave del certificado debe ser RSA de 1024 a 4096 bits, como las que emiten los proveedores acreditados.",
  iterations: "El archivo pide más iteraciones de cifrado de las que usa un certificado real: expórtalo de nuevo desde tu navegador o sistema.",
  timeout: "El certificado tardó demasiado en leerse. Expórtalo de nuevo e inténtalo otra vez.",
  no_rut: "El certificado no indica el RUT de su titular. El SII solo acepta certificados de proveedores acreditados en Chile, que lo incluyen.",
};

const CAF_REASONS: Record<string, string> = {
  malformed: "El archivo CAF no es un XML válido.",
  structure: "El archivo no tiene la estructura de un CAF del SII.",
  signature: "La firma del SII en el CAF no es válida.",
  key_mismatch: "Las claves del CAF no coinciden.",
  unknown_authority: "El CAF no fue emitido por el SII de este ambiente.",
};

/** `CONFLICT` reasons of the decisions on received documents and of a delivery (API.md §11, §12). */
export const DECISION_CONFLICTS: Record<string, string> = {
  already_decided: "Este documento ya tiene una decisión registrada (aquí, en sii.cl o en otro sistema): no se puede cambiar.",
  deadline_passed: "Pasaron los 8 días desde que el SII lo recibió: quedó aceptado tácitamente y ya no se puede reclamar.",
  not_at_sii: "El SII aún no tiene este documento: el emisor debe enviarlo al SII antes de que puedas aceptarlo o reclamarlo. Inténtalo más tarde.",
  not_answerable: "Este tipo de documento (exportación) no se acepta ni se reclama.",
  not_verified: "El documento no pasó la verificación: solo se puede reclamar.",
  superseded: "Llegó una copia verificada de este documento: decide sobre esa.",
  not_accepted: "El SII aún no acepta este documento: se enviará al receptor cuando lo acepte.",
};

/** `ENVELOPE_INVALID` reasons: why an uploaded envelope was not taken. */
export const ENVELOPE_REASONS: Record<string, string> = {
  format: "El archivo no es un XML válido o no es un EnvioDTE (el sobre que el emisor envía por correo).",
  schema: "El sobre no cumple el esquema del SII (EnvioDTE).",
  signature: "La firma del sobre no es válida: pudo ser modificado después de firmarse.",
  not_addressed: "El sobre está dirigido a otro RUT, no a esta empresa.",
};

/** `REFERENCE_INVALID` reasons (a note and the document it modifies). */
const REFERENCE_REASONS: Record<string, string> = {
  missing: "Indica el documento que modifica la nota.",
  rejected: "El SII rechazó el documento referenciado: no hay nada que modificar.",
  date_mismatch: "La fecha no coincide con la del documento referenciado.",
  amount_mismatch: "Para anular un documento, la nota debe tener su mismo total.",
  amount_exceeds: "La nota de crédito no puede superar el total del documento.",
  already_annulled: "El documento ya fue anulado.",
};

const REASONS: Record<string, string> = {
  required: "Este campo es obligatorio.",
  type: "Tipo de valor no válido.",
  format: "Formato no válido.",
  enum: "Valor no permitido.",
  minimum: "El valor es demasiado bajo.",
  maximum: "El valor es demasiado alto.",
  min_length: "Es demasiado corto.",
  max_length: "Es demasiado largo.",
  min_items: "Indica al menos uno.",
  max_items: "Demasiados elementos.",
  invalid_rut: "RUT no válido (revisa el dígito verificador).",
  charset: "Contiene caracteres que el SII no acepta.",
  not_allowed: "No está permitido aquí.",
  number: "Escribe un número (decimales con coma: 2,5).",
  date_in_future: "La fecha no puede ser futura.",
  unknown: "El servidor no conoce este campo.",
};

/** One sentence for an error banner. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return "Ocurrió un error inesperado.";
  const reason = typeof error.details.reason === "string" ? error.details.reason : "";
  if (error.code === "CERTIFICATE_INVALID") return CERTIFICATE_REASONS[reason] ?? `Certificado no válido: ${error.message}`;
  if (error.code === "CAF_INVALID") return CAF_REASONS[reason] ?? `CAF no válido: ${error.message}`;
  if (error.code === "REFERENCE_INVALID") return REFERENCE_REASONS[reason] ?? BY_CODE.REFERENCE_INVALID ?? error.message;
  if (error.code === "NOT_FOUND" && error.message === "route not found") return "Esta función aún no está disponible en este servidor.";
  if (error.code === "CONFLICT" && DECISION_CONFLICTS[reason]) return DECISION_CONFLICTS[reason];
  if (error.code === "ENVELOPE_INVALID") return ENVELOPE_REASONS[reason] ?? `Sobre no válido: ${error.message}`;
  if (error.code === "SII_REFUSED") return `El SII rechazó el registro${typeof error.details.codigo === "number" ? ` (código ${error.details.codigo})` : ""}: ${error.message.replace(/^.*?: /, "")}. No se registró nada.`;
  if (error.code === "UNAVAILABLE" && reason === "tax_authority") return "El SII no respondió: no se registró nada. Inténtalo de nuevo en unos minutos.";
  if (error.code === "RATE_LIMITED" && reason === "document_daily_sends") return "Este documento ya se envió 5 veces en las últimas 24 horas. Vuelve a intentarlo mañana.";
  if (error.code === "RATE_LIMITED" && reason === "mail_daily_limit") return "La empresa alcanzó su límite diario de correos. Vuelve a intentarlo mañana.";
  if (error.code === "CONFLICT") return `Ya existe un registro igual: ${error.message}`;
  if (error.code === "INVALID_PARAMETER") return `Parámetro no válido: ${error.message}`;
  if (error.code === "VALIDATION_ERROR" && error.fieldErrors.length === 0) return `Datos no válidos: ${error.message}`;
  return BY_CODE[error.code] ?? error.message;
}

/** Text shown next to a field. */
export function describeReason(reason: string, serverMessage: string): string {
  return REASONS[reason] ?? serverMessage;
}
