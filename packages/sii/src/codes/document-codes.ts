import type { SiiCodeEntry, SiiCodeSource } from "./types.js";

/**
 * Per-document rejection and remark codes (`SECCION-NIVEL-CODIGO`; nivel 1–2 = reparo, 3 = rechazo), as they
 * appear in the SII result e-mail and in the boleta REST `detalle_rep_rech` (BRIEF §11). Each names its `fuente`. Codes of
 * the `SBX` section are the sandbox's own, for rules the SII applies under a code nobody has published.
 */
const c = (codigo: string, descripcion: string, ayuda: string, fuente: string, source: SiiCodeSource = "observado"): SiiCodeEntry => ({
  codigo,
  descripcion,
  ayuda,
  source,
  fuente,
});

/** Sources named below. */
const MANUAL = "Formato DTE v2.2 (SII, 2019-11-15)";
const LIBREDTE = "observado: ayudas de envío de LibreDTE (SiiEnvioAyudas.php)";
const FIELD = "observado: correos de resultado del SII citados en proyectos públicos";
const OWN = "propio del sandbox: el SII no publica este código";

const LIST: SiiCodeEntry[] = [
  c("CAF-3-517", "CAF vencido",
    "El CAF del folio venció (6 meses desde su autorización en 33, 43, 46, 56 y 61): anule los folios restantes, pida un CAF nuevo y emita de nuevo con un folio de ese CAF.",
    `${LIBREDTE}; el SII lo juzga a la fecha de la firma (TmstFirma), no a FchEmis`),
  c("DTE-3-100", "Posible doble envío (DTE repetido)",
    "El SII ya recibió este mismo documento: consulte su estado (QueryEstDte) en vez de reenviarlo.", LIBREDTE),
  c("DTE-3-101", "Folio para este Tipo de documento ya fue recibido en el SII",
    "Ese folio ya fue enviado al SII (en otro envío o en este mismo): emita el documento con un folio nuevo.", `${FIELD} (texto literal); ${LIBREDTE}`),
  c("DTE-3-601", "Folio anulado",
    "El folio fue anulado en el SII antes de emitir el documento: emítalo con un folio nuevo.", LIBREDTE),
  c("REF-3-750", "DTE referenciado no recibido por el SII",
    "La referencia apunta a un documento que el SII no tiene (o que rechazó): referencie sólo documentos aceptados.", `${LIBREDTE}; ${FIELD}`),
  c("REF-3-415", "Falta referencia obligatoria",
    "Este tipo de documento exige una referencia válida (p. ej. notas de crédito y débito al documento que modifican).",
    `${LIBREDTE}; regla: ${MANUAL}, E. Referencias (notas de crédito y débito)`),
  c("REF-3-758", "Falta código de referencia (CodRef)",
    "Las notas de crédito y débito deben indicar CodRef: 1 anula, 2 corrige texto, 3 corrige montos.",
    `${LIBREDTE}; regla: ${MANUAL}, E. Referencias, campo 8 (CodRef obligatorio en notas)`),
  c("SBX-3-2", "Anulación o corrección de texto con más de un documento de referencia",
    "Una nota que anula (CodRef 1) o corrige texto (CodRef 2) referencia un único documento: emita una nota por documento.",
    `regla: ${MANUAL}, E. Referencias, campo 8 ("casos a) b) y c) deben tener un único documento de referencia"); código ${OWN}`, "sandbox"),
  c("REF-2-780", "Anulación presenta diferencia de monto con documento referenciado",
    "Reparo: una nota que anula (CodRef 1) debe llevar el mismo monto total que el documento que anula; para anular una parte use CodRef 3.",
    FIELD),
  c("HED-3-305", "Fecha de emisión anterior a la fecha de autorización",
    "La fecha de emisión no puede ser anterior a la autorización del emisor ni a la del CAF: corrija la fecha y emita con un folio nuevo.", LIBREDTE),
  c("HED-3-861", "Actividad Económica no registrada",
    "Cada Acteco del emisor debe ser un código de actividad económica del SII registrado para la empresa: corríjalo en los datos de la empresa.",
    `${FIELD}; regla: ${MANUAL}, A. Encabezado, campo 37 (Acteco "deben estar registrado en el SII")`),
  c("HED-1-863", "Razón social del emisor no corresponde a la registrada",
    "Reparo: use la razón social registrada en el SII (la del CAF) en los próximos documentos.", `${FIELD}; el sandbox la compara con la del CAF (RS)`),
  c("ENV-3-6", "Usuario sin permiso de envío",
    "El titular del certificado no tiene permiso para firmar o enviar documentos de la empresa: otórguelo en el SII.", LIBREDTE),
  c("ENV-3-0", "Error en datos del envío (dato no permitido)",
    "Hay un dato o carácter no permitido (p. ej. un emoji o un formato numérico inválido): use sólo texto ISO-8859-1.", LIBREDTE),
  c("CRT-3-18", "RUT Receptor (Caratula) Invalido",
    "La carátula del envío al SII debe llevar RutReceptor 60803000-K.", FIELD),
  c("CRT-3-19", "Fecha/Numero Resolucion Invalido",
    "La carátula debe llevar la resolución del ambiente: en certificación NroResol 0 con la fecha de autorización en certificación; en producción el número y la fecha de la resolución de la empresa. Nunca una fecha futura.",
    FIELD),
  c("SBX-3-1", "RutEnvia de la carátula no es el titular del certificado que firma el envío",
    "RutEnvia debe ser el RUT del titular del certificado que firma el envío (y el que se autenticó para subirlo).", OWN, "sandbox"),
  c("TED-2-510", "Firma del timbre electrónico (TED) incorrecta",
    "El timbre no verifica con la clave del CAF: timbre con el CAF correcto y no cambie los datos después de timbrar.", `${OWN} (el SII informa DTE-3-505 u otros TED-*)`, "sandbox"),
  c("CAF-3-516", "CAF no autorizado por el SII (firma del CAF inválida)",
    "Use el CAF tal como lo entregó el SII (o el sandbox), sin modificarlo.", OWN, "sandbox"),
  c("CAF-3-518", "Folio fuera del rango autorizado por el CAF",
    "El folio debe estar entre D y H del CAF usado para timbrarlo.", OWN, "sandbox"),
  c("CAF-3-519", "CAF de otra empresa o de otro tipo de documento",
    "El CAF debe ser del mismo RUT emisor y del mismo tipo de documento.", OWN, "sandbox"),
  c("REC-3-106", "RUT receptor 66666666-6 (consumidor final) no permitido en este tipo de documento",
    "Sólo las boletas (39, 41) y las notas que las modifican van al consumidor final sin RUT: emita la factura, guía o nota con el RUT del receptor, con un folio nuevo.", OWN, "sandbox"),
  c("SBX-3-4", "Referencia con TpoDocRef o FchRef inválido",
    "Un TpoDocRef numérico debe ser un código de la lista del SII (documentos tributarios, 801–815, 820; use letras para otros) y FchRef una fecha entre 2002-08-01 y 2050-12-31.",
    `regla: ${MANUAL}, E. Referencias, campos 2 (TpoDocRef) y 7 (FchRef); código ${OWN}`, "sandbox"),
  c("SBX-3-3", "RUT receptor fuera de rango",
    "El RUT del receptor debe tener un cuerpo entre 100.000 y 99.999.999 y su dígito verificador: corríjalo y emita con un folio nuevo.",
    `regla: ${MANUAL}, A. Encabezado (RUTRecep: "cuerpo numérico entre 100.000 y 99 millones"); código ${OWN}`, "sandbox"),
  c("HED-3-834", "Falta el bloque de otra moneda (OtraMoneda PESO CL) del documento de exportación",
    "Desde 2017 toda factura y nota de exportación informa OtraMoneda con TpoMoneda PESO CL, el tipo de cambio y los montos en pesos: emita de nuevo con un folio nuevo.", `${FIELD}; regla: Formato DTE, OtraMoneda obligatoria en exportaciones desde 2017`),
  c("HED-2-804", "Bultos sin marcas en un documento de exportación",
    "Reparo: informe Marcas en cada TipoBultos (S/M si no llevan) en los próximos documentos.", FIELD),
  c("TED-3-640", "Monto del timbre (MNT) no corresponde al monto total del documento",
    "En exportaciones el MNT del timbre es MntTotal tal como va en el documento, con sus decimales, sin redondear: timbre de nuevo con un folio nuevo.", FIELD),
  c("HED-1-803", "Montos en otra moneda en un documento sin pago (FmaPagExp 21)",
    "Reparo: una muestra sin carácter comercial (forma de pago 21) lleva montos en pesos 0.", FIELD),
  c("HED-2-302", "[15] Monto de IVA retenido total no corresponde al IVA de las líneas con código 15",
    "Factura de compra con retención total: informe TasaImp 19 con el código 15 y CodImpAdic 15 (con Retenedor/IndAgente R) en cada línea retenida; su MontoImp es el 19 % de esas líneas.",
    `${FIELD} (certificación 2026, glosa "[15] Monto [0]<>[IVA]")`),
  c("HED-2-300", "Total Impuesto/Retencion No Cuadra con Detalle",
    "Cada ImptoReten de una factura de compra es su tasa sobre las líneas que llevan su código en CodImpAdic, y cada código de una línea tiene su ImptoReten.", FIELD),
  c("SBX-2-5", "Valores de la Línea No Cuadran",
    "Reparo de liquidación-factura: si una línea informa QtyItem y PrcItem, MontoItem es su producto redondeado; para un resumen de documentos informe la cantidad y MontoItem sin PrcItem.",
    `glosa observada en certificación (notas públicas de certificación de 43, 2026); código ${OWN}`, "sandbox"),
  c("SBX-2-6", "Encabezado No Cuadran",
    "Reparo de liquidación-factura: MntNeto y MntExe suman las líneas, IVA = MntNeto × TasaIVA, Comisiones suma las líneas de comisión (ValComIVA = ValComNeto × 19 %), MntTotal = neto + exento + IVA − comisiones, IVAProp/IVATerc no superan el IVA.",
    `glosa observada en certificación (notas públicas de certificación de 43, 2026); regla: ${MANUAL}, A121–A124 y zona F; código ${OWN}`, "sandbox"),
  c("DTE-3-510", "Firma del documento inválida",
    "La firma XML del documento no verifica: no modifique el XML después de firmarlo.", `${OWN} (el SII informa DTE-3-505 "Firma DTE Incorrecta")`, "sandbox"),
];

/** Document-level codes, keyed by code. */
export const DOCUMENT_CODES: Readonly<Record<string, SiiCodeEntry>> = Object.fromEntries(
  LIST.map((entry) => [entry.codigo, entry]),
);

/**
 * Level of a `SECCION-NIVEL-CODIGO` code: 1–2 are remarks (reparos), 3 is a rejection; `null` if not that shape.
 *
 * @example
 * codeLevel("HED-1-863"); // 1
 * codeLevel("REF L[5] -3-758"); // 3
 */
export function codeLevel(codigo: string): number | null {
  const match = /-\s*([1-3])-\s*\d+\s*$/.exec(codigo);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/**
 * Normalises variants such as `REF L[5] -3-758` (line-qualified) to the dictionary key `REF-3-758`.
 *
 * @example
 * normalizeDocumentCode("REF L[5] -3-758"); // "REF-3-758"
 */
export function normalizeDocumentCode(codigo: string): string {
  const match = /^([A-Z]{2,4})\b.*?-\s*([0-9])-\s*(\d+)\s*$/.exec(codigo.trim().toUpperCase());
  return match ? `${match[1]}-${match[2]}-${match[3]}` : codigo.trim().toUpperCase();
}
