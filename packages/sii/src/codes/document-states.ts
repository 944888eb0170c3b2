import type { SiiCodeEntry } from "./types.js";

/** QueryEstDte `ESTADO` entries with their `ERR_CODE` (BRIEF §7.4). */
export interface DocumentStateEntry extends SiiCodeEntry {
  errCode: string | null;
}

const d = (codigo: string, errCode: string | null, descripcion: string, ayuda: string): DocumentStateEntry => ({
  codigo,
  errCode,
  descripcion,
  ayuda,
  source: "sii",
});

/** QueryEstDte `ESTADO` values. */
export const DOCUMENT_STATES: Readonly<Record<string, DocumentStateEntry>> = {
  DOK: d("DOK", "0", "Documento recibido por el SII. Datos coinciden con los registrados", "Documento válido."),
  DNK: d("DNK", "1", "Documento recibido por el SII pero datos NO coinciden con los registrados",
    "Revise fecha, monto y receptor consultados; si son correctos, el documento recibido tiene otros datos."),
  FAU: d("FAU", "3", "Documento no recibido por el SII",
    "Aún no está registrado (o el envío sigue en proceso): espere y vuelva a consultar antes de reenviar."),
  FNA: d("FNA", "4", "Documento no autorizado", "El folio no corresponde a un CAF autorizado para la empresa."),
  FAN: d("FAN", "5", "Documento anulado", "El folio fue anulado en el SII y no puede usarse."),
  EMP: d("EMP", "6", "Empresa no autorizada a emitir documentos tributarios electrónicos",
    "La empresa no está habilitada como emisor electrónico en este ambiente."),
  TMD: d("TMD", "10", "Existe nota de débito que modifica texto", "Informativo: el documento sigue vigente."),
  TMC: d("TMC", "11", "Existe nota de crédito que modifica textos", "Informativo: el documento sigue vigente."),
  MMD: d("MMD", "12", "Existe nota de débito que modifica montos", "Informativo: el documento sigue vigente."),
  MMC: d("MMC", "13", "Existe nota de crédito que modifica montos", "Informativo: el documento sigue vigente."),
  AND: d("AND", "14", "Existe nota de débito que anula documento", "El documento quedó anulado por una nota."),
  ANC: d("ANC", "15", "Existe nota de crédito que anula documento", "El documento quedó anulado por una nota."),
  "001": d("001", null, "Token inactivo", "Obtenga un token nuevo y reintente."),
  "002": d("002", null, "Token no existe", "Obtenga un token nuevo y reintente."),
  "003": d("003", null, "Token no válido", "Obtenga un token nuevo y reintente."),
  "-1": d("-1", null, "Error: retorno campo estado", "Error interno del SII: reintente más tarde."),
  "-2": d("-2", null, "Error retorno", "Error interno del SII: reintente más tarde."),
  "-3": d("-3", null, "Error: RUT usuario nulo o parámetros inválidos", "Revise los parámetros de la consulta."),
  "-4": d("-4", null, "Error obtención de datos", "Error interno del SII: reintente más tarde."),
};

/**
 * Looks up a QueryEstDte `ESTADO`.
 *
 * @example
 * documentStateInfo("DOK")?.errCode; // "0"
 */
export function documentStateInfo(estado: string): DocumentStateEntry | undefined {
  return DOCUMENT_STATES[estado.trim()];
}
