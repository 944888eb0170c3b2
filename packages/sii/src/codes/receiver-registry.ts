import type { SiiCodeEntry } from "./types.js";

/**
 * `codResp` of the registry of acceptances and claims ("Web Service de Consulta y Registro de Aceptación/Reclamo a
 * DTE recibido", manual v1.2), keyed by the code as text. `XXX` stands for the claim recorded (RCD, RFP or RFT), as in
 * the manual; {@link receiverRegistryDescription} fills it in. The manual words 12 "previamente rechazado" in its
 * table of codes and "previamente reclamado" in the rules: the table is kept.
 */
export const RECEIVER_REGISTRY_CODES: Readonly<Record<string, SiiCodeEntry>> = Object.fromEntries(
  (
    [
      ["0", "Acción Completada OK.", "El evento quedó registrado en el SII."],
      ["1", "Rut Emisor Erróneo.", "Revise el RUT del emisor y su dígito verificador (K en mayúscula)."],
      ["2", "Número de Folio Erróneo.", "El folio debe ser un número entero positivo."],
      ["3", "Tipo de documento no corresponde.", "El registro opera solo con facturas (33), facturas exentas (34) y liquidaciones factura (43)."],
      ["4", "Acción inválida.", "La acción debe ser ACD, ERM, RCD, RFP o RFT."],
      ["5", "DTE ya está reclamado por XXX", "El documento ya tiene un reclamo registrado."],
      ["6", "No se puede acusar recibo de mercadería de DTE previamente reclamado por XXX", "Un documento reclamado no admite recibo de mercaderías."],
      ["7", "Evento registrado previamente.", "El evento ya estaba registrado: no hay nada más que hacer."],
      ["8", "Pasados 8 días después de la recepción no es posible registrar reclamos o eventos.", "El plazo de 8 días corridos desde la recepción en el SII venció."],
      ["9", "No existen registros de acuerdo a los parámetros ingresados.", "Revise emisor, tipo y folio consultados."],
      ["10", "Documento no emitido y/o recibido en el SII desde el 14 de Enero de 2017 en adelante.", "El registro cubre documentos recibidos desde el 14 de enero de 2017."],
      ["11", "No se puede reclamar DTE previamente aceptado.", "El documento ya fue aceptado (ACD): no admite reclamos."],
      ["12", "No se puede dar por aceptado DTE previamente rechazado por XXX", "El documento ya fue reclamado: no admite aceptación."],
      ["13", "No se puede reclamar DTE previamente registrado como que acuso recibo mercadería.", "Ya se otorgó recibo de mercaderías (ERM): no admite reclamos."],
      ["14", "Acción autorizada sólo para empresa receptora o emisora.", "Autentíquese con un usuario autorizado del emisor o del receptor."],
      ["15", "Listado de eventos del documento.", "La respuesta trae los eventos registrados."],
      ["16", "Documento no presenta eventos de reclamos o acuse de recibo.", "Aún no hay aceptación ni reclamo registrados."],
      ["17", "Acción autorizada solo para empresa receptora.", "Solo el receptor (o sus usuarios autorizados) puede aceptar o reclamar."],
      ["18", "Documento no ha sido recibido.", "El SII no tiene el documento (o su envío sigue en proceso): vuelva a consultar más tarde."],
      ["19", "Reclamo de mercaderías ya realizado.", "El reclamo ya estaba registrado."],
      ["20", "Tipo de documento no es cedible.", "Solo las facturas (33, 34) y liquidaciones factura (43) son cedibles."],
      ["21", "DTE No cedible, referenciado por nota de crédito de anulación del emisor dentro de los primeros 8 días", "El emisor anuló el documento con una nota de crédito."],
      ["22", "No existe registro de reclamo o de recepción de mercadería o servicios.", "Dentro del plazo de 8 días y sin eventos: aún no es cedible."],
      ["23", "DTE Cedible, sin reclamos", "El receptor aceptó o acusó recibo: el documento puede cederse."],
      ["24", "DTE No Cedible, DTE reclamado por el receptor", "El receptor reclamó el documento: no puede cederse."],
      ["25", "DTE Cedible, habiendo pasado 8 días se entiende dado acuse de recibo", "Pasaron 8 días sin reclamo: el documento puede cederse."],
      ["-1", "Error Interno. Rut Receptor del Documento debe reintentar enviar la transacción más tarde.", "Error interno del SII: reintente más tarde."],
    ] as const
  ).map(([codigo, descripcion, ayuda]) => [codigo, { codigo, descripcion, ayuda, source: "sii" as const }]),
);

/** Events of a document in the registry: the receiver's (ACD, ERM, RCD, RFP, RFT) and the credit notes' (NCA, ENC). */
export type ReceiverEventCode = "ACD" | "RCD" | "ERM" | "RFP" | "RFT" | "NCA" | "ENC";

/** Spanish descriptions of the event codes (manual v1.2: `accionDoc` and the events not registered by the WS). */
export const RECEIVER_EVENT_CODES: Readonly<Record<ReceiverEventCode, string>> = {
  ACD: "Acepta Contenido del Documento",
  RCD: "Reclamo al Contenido del Documento",
  ERM: "Otorga Recibo de Mercaderías o Servicios",
  RFP: "Reclamo por Falta Parcial de Mercaderías",
  RFT: "Reclamo por Falta Total de Mercaderías",
  NCA: "Recepción de NC de anulación que referencia al documento",
  ENC: "Recepción de NC, distinta de anulación, que referencia al documento",
};

/** The receiver's window (Ley 19.983): 8 calendar days (8 × 24 h) from the SII's reception of the document. */
export const RECEIVER_WINDOW_MS = 8 * 24 * 3_600_000;

const CLAIMS: ReadonlySet<string> = new Set(["RCD", "RFP", "RFT"]);
const ACCEPTANCES: ReadonlySet<string> = new Set(["ACD", "ERM"]);

/**
 * Whether an event is a claim (RCD, RFP, RFT).
 *
 * @example
 * isClaimEvent("RFT"); // true
 */
export function isClaimEvent(codigo: string): boolean {
  return CLAIMS.has(codigo.trim().toUpperCase());
}

/**
 * Whether an event accepts the document or acknowledges the goods or services (ACD, ERM).
 *
 * @example
 * isAcceptanceEvent("ERM"); // true
 */
export function isAcceptanceEvent(codigo: string): boolean {
  return ACCEPTANCES.has(codigo.trim().toUpperCase());
}

/**
 * Looks up a `codResp` of the registry.
 *
 * @example
 * receiverRegistryCodeInfo(16)?.descripcion; // "Documento no presenta eventos de reclamos o acuse de recibo."
 */
export function receiverRegistryCodeInfo(codigo: number | string): SiiCodeEntry | undefined {
  return RECEIVER_REGISTRY_CODES[String(codigo).trim()];
}

/**
 * The description of a `codResp`, with `XXX` replaced by the claim when given.
 *
 * @example
 * receiverRegistryDescription(6, "RFT"); // "No se puede acusar recibo de mercadería de DTE previamente reclamado por RFT"
 */
export function receiverRegistryDescription(codigo: number | string, claim?: string): string {
  const text = receiverRegistryCodeInfo(codigo)?.descripcion ?? `Código ${String(codigo).trim()}`;
  return claim === undefined ? text : text.replace("XXX", claim);
}
