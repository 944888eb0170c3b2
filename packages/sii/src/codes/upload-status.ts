import type { SiiCodeEntry } from "./types.js";

/** How a caller should treat an upload `STATUS`. */
export type UploadStatusKind = "ok" | "refused" | "transient" | "reauth";

/** `RECEPCIONDTE/STATUS` of DTEUpload (BRIEF §7.2, upload manual table). */
export interface UploadStatusEntry extends SiiCodeEntry {
  kind: UploadStatusKind;
}

const entry = (codigo: string, kind: UploadStatusKind, descripcion: string, ayuda: string): UploadStatusEntry => ({
  codigo,
  kind,
  descripcion,
  ayuda,
  source: "sii",
});

/** Every known DTEUpload `STATUS`, keyed by the code as a string. */
export const UPLOAD_STATUS: Readonly<Record<string, UploadStatusEntry>> = {
  "0": entry("0", "ok", "Upload OK", "El envío fue recibido; consulte su estado con el TRACKID."),
  "1": entry("1", "refused", "El Sender no tiene permiso para enviar",
    "El titular del certificado (RutEnvia) debe estar autorizado en el SII para enviar documentos de la empresa."),
  "2": entry("2", "transient", "Error en tamaño del archivo (muy grande o muy chico)",
    "Reintente el envío; si persiste, revise que el archivo no esté vacío ni exceda el tamaño permitido."),
  "3": entry("3", "transient", "Archivo cortado (tamaño distinto al parámetro size)",
    "El archivo llegó incompleto: reintente enviando Content-Length explícito y sin transferencia por partes."),
  "5": entry("5", "reauth", "No está autenticado",
    "El token expiró o no es válido: obtenga un token nuevo (semilla firmada) y reintente."),
  "6": entry("6", "refused", "Empresa no autorizada a enviar archivos",
    "La empresa emisora no está autorizada como emisor electrónico en este ambiente (certificación o producción)."),
  "7": entry("7", "refused", "Esquema inválido",
    "El XML no cumple el esquema oficial del SII: valídelo contra el XSD y corrija los campos indicados."),
  "8": entry("8", "refused", "Firma del documento",
    "Una firma XML no es válida: no modifique el XML después de firmarlo y verifique el certificado usado."),
  "9": entry("9", "transient", "Sistema bloqueado", "El SII no está recibiendo envíos en este momento: reintente más tarde."),
  "99": entry("99", "transient", "Error interno o envío ya recibido",
    "Consulte el estado de los documentos (QueryEstDte) antes de reenviar para no duplicar el envío."),
};

/**
 * Looks up an upload `STATUS`.
 *
 * @example
 * uploadStatusInfo("7")?.kind; // "refused"
 */
export function uploadStatusInfo(status: string): UploadStatusEntry | undefined {
  return UPLOAD_STATUS[status.trim().replace(/^0+(?=\d)/, "")];
}
