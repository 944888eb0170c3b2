/**
 * The acuse de recibo (API.md §12): every import holding a document that passed the signature, timbre and CAF checks
 * answers the emisor with a signed `RespuestaDTE`/`RecepcionEnvio` — a `RecepcionDTE` per document whose tipo the
 * schema allows — mailed to the emisor's listed intercambio address, else the message's reply address.
 */
import {
  buildRecepcionEnvio,
  encodeLatin1,
  isXmlAnswerable,
  type EstadoRecepDte,
  type ReceivedDte,
  type ReceivedEnvelopeResult,
} from "@timbre/core";
import type { BusinessRow } from "../../db/businesses.js";
import type { Environment } from "../../db/api-keys.js";
import type { Executor } from "../../db/tx.js";
import type { Deps } from "../../deps.js";
import { chileTimestamp } from "../dte/chile-time.js";
import { signingIdentityOf } from "../dte/signing-identity.js";
import { listedIntercambioEmail } from "../issuers/issuer-of.js";
import { intercambioEmail } from "./intercambio-address.js";
import { queueMail, xmlAttachment } from "./outbox.js";
import { nextSequence } from "./sequences.js";

type Verified = Extract<ReceivedEnvelopeResult, { ok: true }>;

/** `EstadoRecepDTE` of one document (BRIEF-intercambio §2.3): its first failed check, 4 for a repeat. */
export function recepcionCode(d: ReceivedDte, duplicate: boolean): EstadoRecepDte {
  if (d.verificacion.firma !== "ok") return 1;
  if (d.verificacion.emisor !== "ok") return 2;
  if (d.verificacion.receptor !== "ok") return 3;
  if (duplicate) return 4;
  return d.verified ? 0 : 99;
}

/** Where answers to `rutEmisor` go: its listed intercambio address first, else the reply address given. */
export async function answerAddress(deps: Deps, rutEmisor: string, environment: Environment, replyTo: string | null): Promise<string | null> {
  return (await listedIntercambioEmail(deps, rutEmisor, environment)) ?? replyTo;
}

export interface AcuseInput {
  business: BusinessRow;
  environment: Environment;
  envelope: Verified;
  /** Per document: whether it repeated a verified one already kept. */
  duplicates: boolean[];
  codEnvio: number;
  filename: string;
  receivedAt: Date;
  addresses: AnswerAddresses;
}

/** Where an answer goes and the business's own address (its Reply-To), read before the transaction that queues it. */
export interface AnswerAddresses {
  to: string | null;
  own: string;
}

export async function answerAddresses(deps: Deps, business: BusinessRow, rutEmisor: string, environment: Environment, replyTo: string | null): Promise<AnswerAddresses> {
  return { to: await answerAddress(deps, rutEmisor, environment, replyTo), own: await intercambioEmail(deps, business) };
}

/**
 * Builds, signs and queues the acuse; returns the outbox row id, or null when nothing is answered (no authentic
 * document, the business has no certificate, or no address).
 */
export async function queueAcuse(deps: Deps, tx: Executor, input: AcuseInput): Promise<string | null> {
  const { business, envelope } = input;
  if (!envelope.documents.some((d) => d.authentic)) return null;
  const { to, own } = input.addresses;
  if (to === null) return null;
  let identity;
  try {
    identity = signingIdentityOf(deps, business).identity;
  } catch {
    return null; // no (valid) certificate: nothing can be signed
  }
  const idRespuesta = await nextSequence(tx, business.id, "id_respuesta");
  const documentos = envelope.documents
    .map((d, i) => ({ d, duplicate: input.duplicates[i] === true }))
    .filter(({ d }) => isXmlAnswerable(d.tipo) && d.folio > 0 && d.montoTotal >= 0 && /^\d{4}-\d{2}-\d{2}$/.test(d.fecha))
    .map(({ d, duplicate }) => ({ tipo: d.tipo, folio: d.folio, fecha: d.fecha, rutEmisor: d.emisor.rut, rutReceptor: d.receptor.rut, montoTotal: Math.trunc(d.montoTotal), estado: recepcionCode(d, duplicate) }));
  const xml = buildRecepcionEnvio({
    caratula: { rutResponde: business.rut, rutRecibe: envelope.caratula.rutEmisor, idRespuesta, contacto: { nombre: business.razonSocial, email: own }, timestamp: chileTimestamp(deps.now()) },
    envios: [{
      nombreEnvio: input.filename,
      recibidoAt: chileTimestamp(input.receivedAt),
      codEnvio: input.codEnvio,
      envioDteId: envelope.setId || "SetDoc",
      ...(envelope.digest ? { digest: envelope.digest } : {}),
      rutEmisor: envelope.caratula.rutEmisor,
      rutReceptor: envelope.caratula.rutReceptor,
      estado: 0,
      nroDte: envelope.documents.length,
      documentos,
    }],
    identity,
    id: `RecepcionEnvio${input.codEnvio}`,
  });
  const row = await queueMail(deps, tx, {
    businessId: business.id,
    environment: input.environment,
    kind: "acuse",
    subjectId: null,
    recipients: [to],
    replyTo: own,
    subject: `${business.rut} - Acuse de recibo de EnvioDTE N° ${input.codEnvio}`,
    body: `Se adjunta el acuse de recibo (RespuestaDTE) del envío ${input.filename}.`,
    attachments: [xmlAttachment(`RecepcionDte_${business.rut}_${input.codEnvio}.xml`, encodeLatin1(xml))],
  });
  return row.id;
}
