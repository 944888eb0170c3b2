import { stateFromUploadStatus } from "@timbre/core/lifecycle";
import type { SiiCodeEntry } from "./types.js";

/** How a caller should treat an upload `STATUS`. */
export type UploadStatusKind = "ok" | "refused" | "transient" | "reauth";

/** `RECEPCIONDTE/STATUS` of DTEUpload (BRIEF §7.2, upload manual table). */
export interface UploadStatusEntry extends SiiCodeEntry {
  kind: UploadStatusKind;
}

/** The kind of a STATUS, from core's mapping (`stateFromUploadStatus`), so the two cannot disagree. */
function kindOf(codigo: string): UploadStatusKind {
  const verdict = stateFromUploadStatus(codigo);
  if (verdict.kind === "sent") return "ok";
  if (verdict.kind === "refused") return "refused";
  return verdict.kind === "retry" && verdict.reauthenticate ? "reauth" : "transient";
}

const entry = (codigo: string, descripcion: string, ayuda: string): UploadStatusEntry => ({
  codigo,
  kind: kindOf(codigo),
  descripcion,
  ayuda,
  source: "sii",
});

/** Every known DTEUpload `STATUS`, keyed by the code as a string. */
export const UPLOAD_STATUS: Readonly<Record<string, UploadStatusEntry>> = {
  "0": entry("0", "Upload OK", "El envío fue recibido; consulte su estado con el TRACKID."),
  "1": entry("1", "El Sender no tiene permiso para enviar",
    "El titular del certificado (RutEnvia) debe estar autorizado en el SII para enviar documentos de la empresa."),
  "2": entry("2", "Error en tamaño del archivo (muy grande o muy chico)",
    "Reintente el envío; si persiste, revise que el archivo no esté vacío ni exceda el tamaño permitido."),
  "3": entry("3", "Archivo cortado (tamaño distinto al parámetro size)",
    "El archivo llegó incompleto: reintente enviando Content-Length explícito y sin transferencia por partes."),
  "5": entry("5", "No está autenticado",
    "El token expiró o no es válido: obtenga un token nuevo (semilla firmada) y reintente."),
  "6": entry("6", "Empresa no autorizada a enviar archivos",
    "La empresa emisora no está autorizada como emisor electrónico en este ambiente (certificación o producción)."),
  "7": entry("7", "Esquema inválido",
    "El XML no cumple el esquema oficial del SII: valídelo contra el XSD y corrija los campos indicados."),
  "8": entry("8", "Firma del documento",
    "Una firma XML no es válida: no modifique el XML después de firmarlo y verifique el certificado usado."),
  "9": entry("9", "Sistema bloqueado", "El SII no está recibiendo envíos en este momento: reintente más tarde."),
  "99": entry("99", "Error interno o envío ya recibido",
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
