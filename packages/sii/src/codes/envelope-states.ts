import type { SiiCodeEntry } from "./types.js";

/**
 * What a QueryEstUp `ESTADO` means for the caller: keep polling (`processing`), read the counts (`processed`,
 * i.e. `EPR`), final envelope verdicts (`rejected`, `remarks`), re-authenticate (`token`) or an SII-side error
 * that is worth retrying later (`error`).
 */
export type EnvelopeStateKind = "processing" | "processed" | "rejected" | "remarks" | "token" | "error";

/** A QueryEstUp `ESTADO` entry. */
export interface EnvelopeStateEntry extends SiiCodeEntry {
  kind: EnvelopeStateKind;
}

const e = (codigo: string, kind: EnvelopeStateKind, descripcion: string, ayuda: string): EnvelopeStateEntry => ({
  codigo,
  kind,
  descripcion,
  ayuda,
  source: "sii",
});

const WAIT = "El SII aún procesa el envío: vuelva a consultar en unos segundos.";

/** QueryEstUp `ESTADO` values (BRIEF §7.3). */
export const ENVELOPE_STATES: Readonly<Record<string, EnvelopeStateEntry>> = {
  REC: e("REC", "processing", "Envío recibido", WAIT),
  SOK: e("SOK", "processing", "Schema validado", WAIT),
  CRT: e("CRT", "processing", "Carátula OK", WAIT),
  FOK: e("FOK", "processing", "Firma de envío validada", WAIT),
  PDR: e("PDR", "processing", "Envío en proceso", WAIT),
  PRD: e("PRD", "processing", "Envío en proceso", WAIT),
  EPR: e("EPR", "processed", "Envío procesado",
    "Envío procesado: revise aceptados, rechazados y reparos por tipo; EPR por sí solo no significa aceptado."),
  RPR: e("RPR", "remarks", "Aceptado con reparos",
    "Documentos válidos con observaciones; corrija con nota de crédito o débito si corresponde."),
  RLV: e("RLV", "remarks", "Aceptado con reparos leves", "Documentos válidos con observaciones leves."),
  RSC: e("RSC", "rejected", "Rechazado por error en schema",
    "El envío no cumple el esquema: corrija el XML y reenvíe los mismos folios (no quedaron registrados)."),
  RFR: e("RFR", "rejected", "Rechazado por error en firma",
    "Una firma no es válida: firme de nuevo sin modificar el XML después de firmar y reenvíe los mismos folios."),
  RCT: e("RCT", "rejected", "Rechazado por error en carátula",
    "Revise la carátula: RutEmisor, RutEnvia (titular del certificado), RutReceptor 60803000-K, resolución y subtotales."),
  RCH: e("RCH", "rejected", "DTE rechazado", "Revise el detalle por documento; emita con un folio nuevo tras corregir."),
  RCO: e("RCO", "rejected", "Rechazado por consistencia", "Revise la consistencia de los datos del envío."),
  RPT: e("RPT", "rejected", "Envío repetido", "Este archivo ya fue enviado; consulte el estado del envío original."),
  VOF: e("VOF", "rejected", "Archivo no encontrado", "El SII no encontró el archivo: reenvíe."),
  "-11": e("-11", "processing", "Error de proceso (ERR_CODE 2: el envío aún se procesa)", WAIT),
  "001": e("001", "token", "Token inactivo", "Obtenga un token nuevo y reintente."),
  "002": e("002", "token", "Token no existe", "Obtenga un token nuevo y reintente."),
  "003": e("003", "token", "Token no válido", "Obtenga un token nuevo y reintente."),
  "-1": e("-1", "error", "Error: RETORNO CAMPO ESTADO", "Error interno del SII: reintente más tarde."),
  "-2": e("-2", "error", "Error retorno", "Error interno del SII: reintente más tarde."),
  "-3": e("-3", "error", "Error: RUT usuario nulo", "Revise el RUT de la empresa consultada y el token."),
  "-4": e("-4", "error", "Error obtención de datos", "Error interno del SII: reintente más tarde."),
  "-5": e("-5", "error", "Error: envío no corresponde a la empresa o no existe",
    "Verifique el TRACKID y el RUT de la empresa consultada."),
  "-6": e("-6", "error", "Error: usuario no autorizado", "El titular del certificado debe estar autorizado para la empresa."),
  "-7": e("-7", "error", "Error interno", "Reintente más tarde."),
};

/**
 * Looks up a QueryEstUp `ESTADO`.
 *
 * @example
 * envelopeStateInfo("EPR")?.kind; // "processed"
 */
export function envelopeStateInfo(estado: string): EnvelopeStateEntry | undefined {
  return ENVELOPE_STATES[estado.trim()];
}
