/**
 * The sandbox's "Web Service de Consulta y Registro de Aceptación/Reclamo a DTE recibido" (manual v1.2) at
 * `/WSREGISTRORECLAMODTE/registroreclamodteservice`: the message shape of `protocol/receiver-registry.ts`, the DTE
 * token as the `TOKEN` cookie, the manual's validations and rules (`receiver-rules.ts`). The sandbox does not model
 * who represents the receiver: any authenticated caller may register actions (no codResp 14 or 17).
 */
import { computeDv } from "@timbre/core/rut";
import { RECEIVER_EVENT_CODES, receiverRegistryDescription, type ReceiverEventCode } from "../codes/receiver-registry.js";
import { chileLocalTime } from "../protocol/chile-time.js";
import { buildReceiverRegistryResponse, isReceiverRegistryOperation, type ReceiverRegistryOperation } from "../protocol/receiver-registry.js";
import { buildSoapFault, parseSoapRequest } from "../protocol/soap.js";
import { escapeXml } from "../protocol/xml-text.js";
import { tokenFromCookie } from "./credentials.js";
import { isReceived, type ReceiverEventRecord, type RegisteredDocument } from "./registry.js";
import { assignabilityCode, decideAction, RECEIVER_TIPOS, REGISTRY_START_MS, withinWindow } from "./receiver-rules.js";
import type { SandboxState } from "./state.js";

const ACTIONS: ReadonlySet<string> = new Set(["ACD", "ERM", "RCD", "RFP", "RFT"]);
const XML = { "Content-Type": "text/xml; charset=utf-8" };

const fault = (code: string, message: string) => new Response(buildSoapFault(code, message), { status: 500, headers: XML });
const answer = (operation: ReceiverRegistryOperation, returnXml: string) =>
  new Response(buildReceiverRegistryResponse(operation, returnXml), { headers: XML });
const codResp = (codigo: number, claim?: string) =>
  `<codResp>${codigo}</codResp><descResp>${escapeXml(receiverRegistryDescription(codigo, claim))}</descResp>`;

/** A request's document, or the `codResp` its parameters earn (1 RUT, 3 tipo, 2 folio). */
type Target = { rut: string; tipo: number; folio: number } | { codigo: number };

function readTarget(params: Map<string, string>): Target {
  const body = (params.get("rutEmisor") ?? "").trim().replace(/^0+(?=\d)/, "");
  const dv = (params.get("dvEmisor") ?? "").trim();
  if (!/^\d{1,8}$/.test(body) || Number(body) < 1000 || dv !== computeDv(body)) return { codigo: 1 };
  const tipo = (params.get("tipoDoc") ?? "").trim();
  if (!/^\d{1,2}$/.test(tipo) || !RECEIVER_TIPOS.has(Number(tipo))) return { codigo: 3 };
  const folio = (params.get("folio") ?? "").trim();
  if (!/^\d{1,10}$/.test(folio) || Number(folio) <= 0) return { codigo: 2 };
  return { rut: `${body}-${dv}`, tipo: Number(tipo), folio: Number(folio) };
}

function received(state: SandboxState, target: { rut: string; tipo: number; folio: number }): RegisteredDocument | undefined {
  const doc = state.registry.find(target.rut, target.tipo, target.folio);
  return doc !== undefined && isReceived(doc, state.settings.now().getTime()) ? doc : undefined;
}

/** The annulling (NCA) or other (ENC) credit notes the SII has that reference the document. */
function creditNotes(state: SandboxState, doc: RegisteredDocument): Array<{ codigo: ReceiverEventCode; rut: string; at: number }> {
  const now = state.settings.now().getTime();
  return state.registry.creditNotesFor(doc.rutEmisor, doc.tipo, doc.folio)
    .filter((note) => isReceived(note, now))
    .map((note) => {
      const annuls = note.references.some((r) => Number(r.tipo) === doc.tipo && Number(r.folio) === doc.folio && r.codRef === 1);
      return { codigo: annuls ? "NCA" : "ENC", rut: note.rutEmisor, at: note.receivedAt };
    });
}

const recorded = (state: SandboxState, doc: RegisteredDocument): ReceiverEventRecord[] =>
  doc.receiverEvents.filter((e) => e.at <= state.settings.now().getTime());

function eventXml(event: { codigo: ReceiverEventCode; rut: string; at: number }): string {
  const [body = "", dv = ""] = event.rut.split("-");
  return (
    `<listaEventosDoc><codEvento>${event.codigo}</codEvento><descEvento>${escapeXml(RECEIVER_EVENT_CODES[event.codigo])}</descEvento>` +
    `<rutResponsable>${escapeXml(body)}</rutResponsable><dvResponsable>${escapeXml(dv)}</dvResponsable>` +
    `<fechaEvento>${chileLocalTime(new Date(event.at)).replace("T", " ")}</fechaEvento></listaEventosDoc>`
  );
}

/** listarEventosHistDoc: 15 with every event (oldest first), 16 none, 18 not received, 10 received before 2017-01-14. */
function listEvents(state: SandboxState, params: Map<string, string>): string {
  const target = readTarget(params);
  if ("codigo" in target) return codResp(target.codigo);
  const doc = received(state, target);
  if (doc === undefined) return codResp(18);
  if (doc.receivedAt < REGISTRY_START_MS) return codResp(10);
  const events = [...recorded(state, doc), ...creditNotes(state, doc)].sort((a, b) => a.at - b.at);
  return events.length === 0 ? codResp(16) : codResp(15) + events.map(eventXml).join("");
}

/** ingresarAceptacionReclamoDoc: the validations (1, 3, 2, 4, 18, 10), the 8 days (8), then `decideAction`; records on 0. */
function registerAction(state: SandboxState, params: Map<string, string>, holderRut: string | null): string {
  const target = readTarget(params);
  if ("codigo" in target) return codResp(target.codigo);
  const accion = (params.get("accionDoc") ?? "").trim();
  if (!ACTIONS.has(accion)) return codResp(4);
  const doc = received(state, target);
  if (doc === undefined) return codResp(18);
  if (doc.receivedAt < REGISTRY_START_MS) return codResp(10);
  const now = state.settings.now().getTime();
  if (!withinWindow(doc.receivedAt, now)) return codResp(8);
  const codigo = accion as ReceiverEventRecord["codigo"];
  const decision = decideAction(recorded(state, doc), codigo);
  if (decision.record) {
    const event = { codigo, rut: holderRut ?? doc.rutRecep, at: now };
    doc.receiverEvents.push(event);
    state.remember({ kind: "event", rutEmisor: doc.rutEmisor, tipo: doc.tipo, folio: doc.folio, event });
  }
  return codResp(decision.codigo, decision.claim);
}

/** consultarDocDteCedible: 20 for tipos other than 33/34/43, 18 not received, 10 before 2017-01-14, else `assignabilityCode`. */
function assignability(state: SandboxState, params: Map<string, string>): string {
  const target = readTarget(params);
  if ("codigo" in target) return codResp(target.codigo === 3 ? 20 : target.codigo);
  const doc = received(state, target);
  if (doc === undefined) return codResp(18);
  if (doc.receivedAt < REGISTRY_START_MS) return codResp(10);
  return codResp(assignabilityCode({
    receivedAt: doc.receivedAt,
    now: state.settings.now().getTime(),
    events: recorded(state, doc),
    annulledAt: creditNotes(state, doc).filter((n) => n.codigo === "NCA").map((n) => n.at),
  }));
}

/** consultarFechaRecepcionSii: `DD-MM-YYYY HH:MM:SS` (Chile) of the reception, empty when not received. */
function receptionDate(state: SandboxState, params: Map<string, string>): string {
  const target = readTarget(params);
  const doc = "codigo" in target ? undefined : received(state, target);
  if (doc === undefined) return "";
  const local = chileLocalTime(new Date(doc.receivedAt));
  return `${local.slice(8, 10)}-${local.slice(5, 7)}-${local.slice(0, 4)} ${local.slice(11)}`;
}

/**
 * Serves one POST to the registry: a missing, unknown or expired DTE token, an unreadable body or an unknown
 * operation get a SOAP Fault (HTTP 500); everything else an answer with its `codResp`.
 *
 * @example
 * if (path === SII_PATHS.receiverRegistry && req.method === "POST") return handleReceiverRegistry(state, req);
 */
export async function handleReceiverRegistry(state: SandboxState, req: Request): Promise<Response> {
  const check = state.credentials.checkToken(tokenFromCookie(req.headers.get("cookie")), "dte");
  if (check.status !== "valid") return fault("S:Server", check.status === "expired" ? "Token expirado" : "Token no válido");
  const request = parseSoapRequest(await req.text());
  if (request === null || !isReceiverRegistryOperation(request.operation)) return fault("S:Client", "Operación desconocida");
  const { operation, params } = request;
  if (operation === "listarEventosHistDoc") return answer(operation, listEvents(state, params));
  if (operation === "consultarDocDteCedible") return answer(operation, assignability(state, params));
  if (operation === "consultarFechaRecepcionSii") return answer(operation, receptionDate(state, params));
  return answer(operation, registerAction(state, params, check.issued.holderRut));
}
