/**
 * `EnvioRecibos` (EnvioRecibos_v10.xsd + Recibos_v10.xsd): the Ley 19.983 receipt of goods or services,
 * BRIEF-intercambio §2.5. Each `Recibo` is signed as its own document **with** the SiiDte default namespace and
 * embedded byte for byte; the root declares only that namespace (no `xmlns:xsi`), so each Recibo's signature verifies
 * both cut out and in context (§2.7); then `SetRecibos` is signed in context.
 */
import { canonicalizeXml } from "../signature/canonical.js";
import { signReference } from "../signature/sign-reference.js";
import type { SigningIdentity } from "../signature/types.js";
import { C14N_ALGORITHM, SII_NS, XML_DECLARATION } from "../xml/constants.js";
import { type AnswerContact, type AnsweredDocument, contactFields, documentFields, fail, rut, text, timestamp, xmlId } from "./answer-fields.js";

/** The fixed `Declaracion` of Recibos_v10.xsd, byte for byte (ASCII, final period included). */
export const DECLARACION_RECIBO =
  "El acuse de recibo que se declara en este acto, de acuerdo a lo dispuesto en la letra b) del Art. 4, y la letra c) del Art. 5 de la Ley 19.983, acredita que la entrega de mercaderias o servicio(s) prestado(s) ha(n) sido recibido(s).";

export interface Recibo extends AnsweredDocument {
  /** Where the goods or services were received (≤ 80; e.g. the business's address and comuna). */
  recinto: string;
  /** RUT of the person signing (the certificate's holder). */
  rutFirma: string;
  /** `TmstFirmaRecibo`, `YYYY-MM-DDTHH:MM:SS`. */
  timestamp: string;
}

export interface BuildEnvioRecibosOptions {
  caratula: { rutResponde: string; rutRecibe: string; contacto?: AnswerContact; timestamp: string };
  recibos: Recibo[];
  identity: SigningIdentity;
  /** `SetRecibos/@ID` (default `SetRecibos`). */
  id?: string;
}

function signedRecibo(r: Recibo, i: number, identity: SigningIdentity): string {
  const field = `recibos[${i}]`;
  const id = `T${r.tipo}F${r.folio}`;
  const recinto = text(r.recinto, 80);
  if (recinto === "") fail(`${field}.recinto is required`, `${field}.recinto`);
  const documento =
    `<DocumentoRecibo ID="${id}">${documentFields(r, "TipoDoc", field)}<Recinto>${recinto}</Recinto>` +
    `<RutFirma>${rut(r.rutFirma, `${field}.rutFirma`)}</RutFirma><Declaracion>${DECLARACION_RECIBO}</Declaracion>` +
    `<TmstFirmaRecibo>${timestamp(r.timestamp, `${field}.timestamp`)}</TmstFirmaRecibo></DocumentoRecibo>`;
  const canonical = canonicalizeXml(documento, { inScope: { "": SII_NS } });
  const signature = signReference({ canonical, uri: `#${id}`, transform: C14N_ALGORITHM, identity });
  return `<Recibo xmlns="${SII_NS}" version="1.0">${documento}${signature}</Recibo>`;
}

/**
 * The signed `EnvioRecibos` for documents the business accepted with receipt of goods (ERM). Throws
 * `VALIDATION_ERROR` for what the schema would refuse (tipo 43 or 110–112, bad RUTs, an empty recinto, a
 * document twice).
 *
 * @example
 * buildEnvioRecibos({ caratula: { rutResponde: "76192083-9", rutRecibe: "88888888-8", timestamp },
 *   recibos: [{ ...doc, recinto: "Bodega central, Santiago", rutFirma: "11111111-1", timestamp }], identity });
 */
export function buildEnvioRecibos(options: BuildEnvioRecibosOptions): string {
  const { caratula: c, recibos, identity } = options;
  if (recibos.length === 0) fail("recibos must hold at least one document", "recibos");
  const seen = new Set<string>();
  for (const r of recibos) {
    const key = `${r.tipo}/${r.folio}`;
    if (seen.has(key)) fail(`recibos name ${key} twice`, "recibos");
    seen.add(key);
  }
  const id = xmlId(options.id ?? "SetRecibos", "id");
  const set =
    `<SetRecibos ID="${id}"><Caratula version="1.0"><RutResponde>${rut(c.rutResponde, "caratula.rutResponde")}</RutResponde>` +
    `<RutRecibe>${rut(c.rutRecibe, "caratula.rutRecibe")}</RutRecibe>${contactFields(c.contacto)}` +
    `<TmstFirmaEnv>${timestamp(c.timestamp, "caratula.timestamp")}</TmstFirmaEnv></Caratula>` +
    `${recibos.map((r, i) => signedRecibo(r, i, identity)).join("")}</SetRecibos>`;
  const canonical = canonicalizeXml(set, { inScope: { "": SII_NS } });
  const signature = signReference({ canonical, uri: `#${id}`, transform: C14N_ALGORITHM, identity });
  return `${XML_DECLARATION}<EnvioRecibos xmlns="${SII_NS}" version="1.0">${set}${signature}</EnvioRecibos>`;
}
