/**
 * The commercial answers mailed to the emisor after a decision (API.md §12): a `ResultadoDTE` (accepted or rejected)
 * and, with the receipt of goods, an `EnvioRecibos` carrying the Ley 19.983 declaration — both in one mail, as
 * peers do. Only for tipos the answer schemas allow.
 */
import { buildEnvioRecibos, buildResultadoDte, encodeLatin1, isXmlAnswerable, type EstadoDte } from "@timbre/core";
import type { BusinessRow } from "../../db/businesses.js";
import type { OutboxAttachment, ReceivedDocumentRow } from "../../db/received.js";
import type { Executor } from "../../db/tx.js";
import type { Deps } from "../../deps.js";
import { chileTimestamp } from "../dte/chile-time.js";
import type { SigningIdentityInfo } from "../dte/signing-identity.js";
import type { AnswerAddresses } from "./acuse.js";
import { queueMail, xmlAttachment } from "./outbox.js";
import { nextSequence } from "./sequences.js";

export interface AnswerDecision {
  estado: EstadoDte;
  glosa: string;
  /** The receipt of goods (ERM): also an EnvioRecibos, at this recinto. */
  recibo?: { recinto: string };
}

/** Queues the answers; returns the outbox row id, or null when the tipo has no XML answer or there is no address. */
export async function queueAnswers(deps: Deps, tx: Executor, business: BusinessRow, signer: SigningIdentityInfo, row: ReceivedDocumentRow, decision: AnswerDecision, addresses: AnswerAddresses): Promise<string | null> {
  if (!isXmlAnswerable(row.tipo)) return null;
  const { to, own } = addresses;
  if (to === null) return null;
  const timestamp = chileTimestamp(deps.now());
  const doc = { tipo: row.tipo, folio: row.folio, fecha: row.fecha, rutEmisor: row.emisorRut, rutReceptor: business.rut, montoTotal: row.montoTotal };
  const contacto = { nombre: business.razonSocial, email: own };
  const idRespuesta = await nextSequence(tx, business.id, "id_respuesta");
  const attachments: OutboxAttachment[] = [];
  const resultado = buildResultadoDte({
    caratula: { rutResponde: business.rut, rutRecibe: row.emisorRut, idRespuesta, contacto, timestamp },
    resultados: [{ ...doc, codEnvio: row.codEnvio, estado: decision.estado, glosa: decision.glosa }],
    identity: signer.identity,
    id: `ResultadoDTE${idRespuesta}`,
  });
  attachments.push(xmlAttachment(`ResultadoDte_${business.rut}_${idRespuesta}.xml`, encodeLatin1(resultado)));
  if (decision.recibo) {
    const recibos = buildEnvioRecibos({
      caratula: { rutResponde: business.rut, rutRecibe: row.emisorRut, contacto, timestamp },
      recibos: [{ ...doc, recinto: decision.recibo.recinto, rutFirma: signer.identity.holderRut ?? business.rut, timestamp }],
      identity: signer.identity,
      id: `SetRecibos${idRespuesta}`,
    });
    attachments.push(xmlAttachment(`EnvioRecibos_${business.rut}_${idRespuesta}.xml`, encodeLatin1(recibos)));
  }
  const mail = await queueMail(deps, tx, {
    businessId: business.id,
    environment: row.environment,
    kind: decision.recibo ? "recibos" : "resultado",
    subjectId: row.id,
    recipients: [to],
    replyTo: contacto.email,
    subject: `${business.rut} - Respuesta intercambio DTE N° ${idRespuesta}`,
    body: `Se adjuntan XMLs de respuesta a intercambio de DTE (tipo ${row.tipo}, folio ${row.folio}).`,
    attachments,
  });
  return mail.id;
}
