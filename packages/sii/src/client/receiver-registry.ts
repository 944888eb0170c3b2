/**
 * The SII's "Web Service de Consulta y Registro de Aceptación/Reclamo a DTE recibido" (manual v1.2): what the
 * receiver of a factura (33), factura exenta (34) or liquidación factura (43) said about it within the 8 calendar
 * days the law gives (Ley 19.983 as amended by Ley 20.956), and the receiver's way to say it.
 */
import type { ClientContext } from "./context.js";
import { parseReceiverEvents, parseReceptionDate, parseRegistryAnswer } from "./parse-receiver-registry.js";
import { callReceiverRegistry } from "./receiver-registry-call.js";
import { rutParts } from "./rut-parts.js";

/**
 * What a receiver can register: ACD accepts the content, ERM acknowledges the goods or services (Ley 19.983's
 * recibo), RCD claims the content, RFP / RFT claim a partial / total lack of goods.
 */
export type ReceiverAction = "ACD" | "RCD" | "ERM" | "RFP" | "RFT";

/** Which document to ask about: its issuer (`"76354771-K"`), tipo and folio. */
export interface ReceiverDocumentQuery {
  rutEmisor: string;
  tipo: number;
  folio: number;
}

/** One event of a document in the registry. */
export interface ReceiverEvent {
  /** ACD, ERM, RCD, RFP, RFT (registered by the receiver) or NCA, ENC (credit notes referencing the document). */
  codigo: string;
  descripcion: string;
  /** Who registered it, `"12345678-9"`. */
  rutResponsable: string | null;
  /** `YYYY-MM-DDTHH:MM:SS` in Chile's local time (no offset), or the SII's text when unreadable. */
  fecha: string | null;
}

/** listarEventosHistDoc's answer: 15 with the events, 16 no events, 18 not received, 1/2/3 bad parameters. */
export interface ReceiverEvents {
  codigo: number;
  descripcion: string;
  /** In the SII's order (oldest first). */
  eventos: ReceiverEvent[];
}

/** A `codResp` and its `descResp`: see `RECEIVER_REGISTRY_CODES`. */
export interface ReceiverRegistryAnswer {
  codigo: number;
  descripcion: string;
}

const documentValues = (query: ReceiverDocumentQuery) => {
  const emisor = rutParts(query.rutEmisor);
  return { rutEmisor: emisor.body, dvEmisor: emisor.dv, tipoDoc: String(query.tipo), folio: String(query.folio) };
};

/**
 * listarEventosHistDoc: the document's events.
 *
 * @example
 * const { codigo, eventos } = await queryReceiverEvents(ctx, token, { rutEmisor: "76354771-K", tipo: 33, folio: 170 });
 */
export async function queryReceiverEvents(ctx: ClientContext, token: string, query: ReceiverDocumentQuery): Promise<ReceiverEvents> {
  const op = "listReceiverEvents";
  return parseReceiverEvents(await callReceiverRegistry(ctx, token, "listarEventosHistDoc", documentValues(query), op), op);
}

/**
 * consultarDocDteCedible: whether the document can be assigned (cedido): 23 / 25 yes, 21 / 22 / 24 no, 20 a tipo
 * that is never assignable, 18 not received.
 *
 * @example
 * (await queryAssignability(ctx, token, { rutEmisor: "76354771-K", tipo: 33, folio: 170 })).codigo; // 22
 */
export async function queryAssignability(ctx: ClientContext, token: string, query: ReceiverDocumentQuery): Promise<ReceiverRegistryAnswer> {
  const op = "getAssignability";
  return parseRegistryAnswer(await callReceiverRegistry(ctx, token, "consultarDocDteCedible", documentValues(query), op), op);
}

/**
 * consultarFechaRecepcionSii: when the SII received the document (`YYYY-MM-DDTHH:MM:SS`, Chile), `null` if not.
 * The 8 days run from this moment.
 *
 * @example
 * await queryReceptionDate(ctx, token, { rutEmisor: "76354771-K", tipo: 33, folio: 170 }); // "2026-11-20T10:11:12"
 */
export async function queryReceptionDate(ctx: ClientContext, token: string, query: ReceiverDocumentQuery): Promise<string | null> {
  const op = "getSiiReceptionDate";
  return parseReceptionDate(await callReceiverRegistry(ctx, token, "consultarFechaRecepcionSii", documentValues(query), op), op);
}

/**
 * ingresarAceptacionReclamoDoc: registers the receiver's action. 0 recorded; 7 it already was (so a retry after an
 * unknown outcome is harmless); 6, 11, 12, 13 refused by an earlier event; 8 the 8 days passed; 17 not the receiver.
 *
 * @example
 * (await registerAction(ctx, token, { rutEmisor: "76354771-K", tipo: 33, folio: 170, accion: "ACD" })).codigo; // 0
 */
export async function registerAction(
  ctx: ClientContext,
  token: string,
  query: ReceiverDocumentQuery & { accion: ReceiverAction },
): Promise<ReceiverRegistryAnswer> {
  const op = "registerReceiverAction";
  const values = { ...documentValues(query), accionDoc: query.accion };
  return parseRegistryAnswer(await callReceiverRegistry(ctx, token, "ingresarAceptacionReclamoDoc", values, op), op);
}
