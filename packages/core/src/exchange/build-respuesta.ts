/**
 * `RespuestaDTE` (RespuestaEnvioDTE_v10.xsd): the receiver's acuse de recibo (`RecepcionEnvio`) and its commercial
 * answer (`ResultadoDTE`), BRIEF-intercambio §2.2–§2.4. One signature over `Resultado`, computed in the final
 * document's context (the root declares only the SiiDte default namespace, no `xmlns:xsi`), as §2.7 says.
 */
import { canonicalizeXml } from "../signature/canonical.js";
import { signReference } from "../signature/sign-reference.js";
import type { SigningIdentity } from "../signature/types.js";
import { C14N_ALGORITHM, SII_NS, XML_DECLARATION } from "../xml/constants.js";
import {
  type AnswerContact,
  type AnsweredDocument,
  contactFields,
  documentFields,
  fail,
  positive,
  rut,
  text,
  timestamp,
  xmlId,
} from "./answer-fields.js";

/** `EstadoRecepEnv`: 0 conforme, 1 schema, 2 firma, 3 RUT receptor, 90 repetido, 91 ilegible, 99 otros. */
export type EstadoRecepEnv = 0 | 1 | 2 | 3 | 90 | 91 | 99;
/** `EstadoRecepDTE`: 0 OK, 1 firma, 2 RUT emisor, 3 RUT receptor, 4 repetido, 99 otros. */
export type EstadoRecepDte = 0 | 1 | 2 | 3 | 4 | 99;
/** `EstadoDTE`: 0 aceptado, 1 aceptado con discrepancias, 2 rechazado. */
export type EstadoDte = 0 | 1 | 2;

/** The glosas of BRIEF-intercambio §2.3/§2.4, for the codes' default texts. */
export const ESTADO_RECEP_ENV_GLOSA: Record<EstadoRecepEnv, string> = {
  0: "Envio Recibido Conforme",
  1: "Envio Rechazado - Error de Schema",
  2: "Envio Rechazado - Error de Firma",
  3: "Envio Rechazado - RUT Receptor No Corresponde",
  90: "Envio Rechazado - Archivo Repetido",
  91: "Envio Rechazado - Archivo Ilegible",
  99: "Envio Rechazado - Otros",
};
export const ESTADO_RECEP_DTE_GLOSA: Record<EstadoRecepDte, string> = {
  0: "DTE Recibido OK",
  1: "DTE No Recibido - Error de Firma",
  2: "DTE No Recibido - Error en RUT Emisor",
  3: "DTE No Recibido - Error en RUT Receptor",
  4: "DTE No Recibido - DTE Repetido",
  99: "DTE No Recibido - Otros",
};

/** Who answers whom, and when: the `Caratula` of a `RespuestaDTE`. */
export interface RespuestaCaratula {
  /** The receiver of the documents (who answers). */
  rutResponde: string;
  /** The issuer of the documents (to whom). */
  rutRecibe: string;
  /** The receiver's own answer number, ≥ 1 (the XSD refuses 0). */
  idRespuesta: number;
  contacto?: AnswerContact;
  /** `TmstFirmaResp`, `YYYY-MM-DDTHH:MM:SS` Chile local time. */
  timestamp: string;
}

/** One received document's row in an acuse. */
export interface RecepcionDte extends AnsweredDocument {
  estado: EstadoRecepDte;
  /** Defaults to the code's glosa. */
  glosa?: string;
}

/** One received envelope in an acuse. */
export interface RecepcionEnvio {
  /** File name the envelope arrived as (≤ 80). */
  nombreEnvio: string;
  /** When it was received, `YYYY-MM-DDTHH:MM:SS`. */
  recibidoAt: string;
  /** The receiver's number for the envelope, ≥ 1. */
  codEnvio: number;
  /** `SetDTE/@ID` of the received envelope. */
  envioDteId: string;
  /** The envelope signature's `DigestValue`. */
  digest?: string;
  rutEmisor?: string;
  rutReceptor?: string;
  estado: EstadoRecepEnv;
  glosa?: string;
  /** Number of DTEs the envelope held (all tipos). */
  nroDte?: number;
  /** Rows for the documents whose tipo the schema allows (see `isXmlAnswerable`). */
  documentos: RecepcionDte[];
}

/** One document's commercial answer. */
export interface ResultadoDte extends AnsweredDocument {
  /** `CodEnvio` of the acuse in which the document was acknowledged. */
  codEnvio: number;
  estado: EstadoDte;
  /** "ACEPTADO OK", "ACEPTADO CON DISCREPANCIAS" or "RECHAZADO" + the reason (a claim must state it). */
  glosa: string;
}

export interface BuildRespuestaOptions {
  caratula: RespuestaCaratula;
  identity: SigningIdentity;
  /** `Resultado/@ID` (default `RespuestaDTE`). */
  id?: string;
}

const ESTADOS_ENV = Object.keys(ESTADO_RECEP_ENV_GLOSA).map(Number);
const ESTADOS_DTE = Object.keys(ESTADO_RECEP_DTE_GLOSA).map(Number);

function caratulaXml(c: RespuestaCaratula, detalles: number): string {
  positive(c.idRespuesta, 10, "caratula.idRespuesta");
  positive(detalles, 4, "detalles");
  return (
    `<Caratula version="1.0"><RutResponde>${rut(c.rutResponde, "caratula.rutResponde")}</RutResponde>` +
    `<RutRecibe>${rut(c.rutRecibe, "caratula.rutRecibe")}</RutRecibe><IdRespuesta>${c.idRespuesta}</IdRespuesta>` +
    `<NroDetalles>${detalles}</NroDetalles>${contactFields(c.contacto)}` +
    `<TmstFirmaResp>${timestamp(c.timestamp, "caratula.timestamp")}</TmstFirmaResp></Caratula>`
  );
}

function recepcionEnvioXml(e: RecepcionEnvio, i: number): string {
  const field = `envios[${i}]`;
  if (!ESTADOS_ENV.includes(e.estado)) fail(`${field}.estado is not an EstadoRecepEnv code`, `${field}.estado`);
  if (e.digest !== undefined && !/^[A-Za-z0-9+/=]{1,200}$/.test(e.digest)) fail(`${field}.digest must be base64`, `${field}.digest`);
  let xml =
    `<RecepcionEnvio><NmbEnvio>${text(e.nombreEnvio, 80) || "EnvioDTE.xml"}</NmbEnvio>` +
    `<FchRecep>${timestamp(e.recibidoAt, `${field}.recibidoAt`)}</FchRecep>` +
    `<CodEnvio>${positive(e.codEnvio, 10, `${field}.codEnvio`)}</CodEnvio>` +
    `<EnvioDTEID>${text(e.envioDteId, 80) || "SetDoc"}</EnvioDTEID>`;
  if (e.digest !== undefined) xml += `<Digest>${e.digest}</Digest>`;
  if (e.rutEmisor !== undefined) xml += `<RutEmisor>${rut(e.rutEmisor, `${field}.rutEmisor`)}</RutEmisor>`;
  if (e.rutReceptor !== undefined) xml += `<RutReceptor>${rut(e.rutReceptor, `${field}.rutReceptor`)}</RutReceptor>`;
  xml += `<EstadoRecepEnv>${e.estado}</EstadoRecepEnv><RecepEnvGlosa>${text(e.glosa ?? ESTADO_RECEP_ENV_GLOSA[e.estado], 256)}</RecepEnvGlosa>`;
  if (e.nroDte !== undefined) xml += `<NroDTE>${positive(e.nroDte, 10, `${field}.nroDte`)}</NroDTE>`;
  e.documentos.forEach((d, j) => {
    const f = `${field}.documentos[${j}]`;
    if (!ESTADOS_DTE.includes(d.estado)) fail(`${f}.estado is not an EstadoRecepDTE code`, `${f}.estado`);
    xml +=
      `<RecepcionDTE>${documentFields(d, "TipoDTE", f)}<EstadoRecepDTE>${d.estado}</EstadoRecepDTE>` +
      `<RecepDTEGlosa>${text(d.glosa ?? ESTADO_RECEP_DTE_GLOSA[d.estado], 256)}</RecepDTEGlosa></RecepcionDTE>`;
  });
  return `${xml}</RecepcionEnvio>`;
}

function resultadoDteXml(r: ResultadoDte, i: number): string {
  const field = `resultados[${i}]`;
  if (r.estado !== 0 && r.estado !== 1 && r.estado !== 2) fail(`${field}.estado must be 0, 1 or 2`, `${field}.estado`);
  const glosa = text(r.glosa, 256);
  if (glosa === "") fail(`${field}.glosa is required`, `${field}.glosa`);
  return (
    `<ResultadoDTE>${documentFields(r, "TipoDTE", field)}<CodEnvio>${positive(r.codEnvio, 10, `${field}.codEnvio`)}</CodEnvio>` +
    `<EstadoDTE>${r.estado}</EstadoDTE><EstadoDTEGlosa>${glosa}</EstadoDTEGlosa>` +
    // CodRchDsc is a negative integer with no official list yet: -1 marks a rejection, as peers do.
    `${r.estado === 2 ? "<CodRchDsc>-1</CodRchDsc>" : ""}</ResultadoDTE>`
  );
}

function signRespuesta(caratula: string, body: string, options: BuildRespuestaOptions): string {
  const id = xmlId(options.id ?? "RespuestaDTE", "id");
  const resultado = `<Resultado ID="${id}">${caratula}${body}</Resultado>`;
  const canonical = canonicalizeXml(resultado, { inScope: { "": SII_NS } });
  const signature = signReference({ canonical, uri: `#${id}`, transform: C14N_ALGORITHM, identity: options.identity });
  return `${XML_DECLARATION}<RespuestaDTE xmlns="${SII_NS}" version="1.0">${resultado}${signature}</RespuestaDTE>`;
}

/**
 * The signed acuse de recibo: a `RespuestaDTE` whose `Resultado` holds one `RecepcionEnvio` per received envelope.
 * Throws `VALIDATION_ERROR` (naming the field) for what the schema would refuse.
 *
 * @example
 * buildRecepcionEnvio({ caratula: { rutResponde: "76192083-9", rutRecibe: "88888888-8", idRespuesta: 1, timestamp },
 *   envios: [{ nombreEnvio: "dte.xml", recibidoAt, codEnvio: 1, envioDteId: "SetDoc", estado: 0, documentos: [] }], identity });
 */
export function buildRecepcionEnvio(options: BuildRespuestaOptions & { envios: RecepcionEnvio[] }): string {
  if (options.envios.length === 0) fail("envios must hold at least one envelope", "envios");
  return signRespuesta(caratulaXml(options.caratula, options.envios.length), options.envios.map(recepcionEnvioXml).join(""), options);
}

/**
 * The signed commercial answer: a `RespuestaDTE` whose `Resultado` holds one `ResultadoDTE` per document
 * (accepted 0, with discrepancies 1, rejected 2 with `CodRchDsc` -1).
 *
 * @example
 * buildResultadoDte({ caratula, resultados: [{ ...doc, codEnvio: 1, estado: 0, glosa: "ACEPTADO OK" }], identity });
 */
export function buildResultadoDte(options: BuildRespuestaOptions & { resultados: ResultadoDte[] }): string {
  if (options.resultados.length === 0) fail("resultados must hold at least one document", "resultados");
  return signRespuesta(caratulaXml(options.caratula, options.resultados.length), options.resultados.map(resultadoDteXml).join(""), options);
}
