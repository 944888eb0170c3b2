/**
 * `POST /received/{id}/aceptar` and `/reclamar` (API.md §12): checks what the tipo and the document's state allow,
 * registers the action in the SII's registry where it applies (33/34/43; the SII's refusal or silence leaves
 * nothing recorded), then records the decision, its `received.decided` event and the answers mailed to the emisor
 * in one transaction.
 */
import { and, eq } from "drizzle-orm";
import type { ReceiverAction } from "@timbre/sii";
import { readBusinessRow } from "../businesses/business-row.js";
import { receivedDocuments, type ReceivedDocumentRow, type ReceivedEvent, type ReceivedState } from "../../db/received.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError, notFound } from "../../http/errors.js";
import { recordEvent } from "../dte/change-state.js";
import { signingIdentityOf } from "../dte/signing-identity.js";
import { answerAddresses } from "./acuse.js";
import { queueAnswers, type AnswerDecision } from "./answer-mails.js";
import { eventData, UNANSWERABLE_TIPOS } from "./import-envelope.js";
import { findReceived } from "./find-received.js";
import { refreshRegistry } from "./refresh-registry.js";
import { registerDecision, REGISTRY_TIPOS } from "./registry.js";

const DESCRIPTIONS: Record<ReceiverAction, string> = {
  ACD: "Acepta Contenido del Documento",
  ERM: "Otorga Recibo de Mercaderías o Servicios",
  RCD: "Reclamo al Contenido del Documento",
  RFP: "Reclamo por Falta Parcial de Mercaderías",
  RFT: "Reclamo por Falta Total de Mercaderías",
};

const conflict = (reason: string, message: string) => new ApiError("CONFLICT", message, { reason });

export interface AcceptInput {
  recibo_mercaderias?: boolean;
  recinto?: string;
}

export interface ClaimInput {
  accion: "RCD" | "RFP" | "RFT";
  motivo: string;
}

/** The document as the registry says now (for 33/34/43 that the SII may know), so decisions start from the truth. */
async function current(deps: Deps, row: ReceivedDocumentRow): Promise<ReceivedDocumentRow> {
  if (!REGISTRY_TIPOS.has(row.tipo) || !row.verified || row.estado === "RECLAMADO") return row;
  return (await refreshRegistry(deps, row)) ?? row;
}

function checkDecidable(row: ReceivedDocumentRow): void {
  if (UNANSWERABLE_TIPOS.has(row.tipo)) throw conflict("not_answerable", `tipo ${row.tipo} documents take no decision`);
  if (row.supersededBy !== null) throw conflict("superseded", `superseded by ${row.supersededBy}: decide on that one`);
  if (row.estado === "ACEPTADO_TACITO") throw conflict("deadline_passed", "the 8 days passed: the document was tacitly accepted");
  if (row.estado === "RECLAMADO") throw conflict("already_decided", "the document was already claimed");
}

async function apply(deps: Deps, scope: BusinessScope, row: ReceivedDocumentRow, actions: ReceiverAction[], estado: ReceivedState, answer: AnswerDecision, extra: Record<string, unknown>): Promise<ReceivedDocumentRow> {
  const business = await readBusinessRow(deps, scope.businessId);
  if (!business) throw notFound("business");
  const signer = signingIdentityOf(deps, business);
  if (REGISTRY_TIPOS.has(row.tipo)) for (const accion of actions) await registerDecision(deps, row, accion);
  const addresses = await answerAddresses(deps, business, row.emisorRut, row.environment, row.replyTo);
  const at = deps.now();
  const added: ReceivedEvent[] = actions.map((accion) => ({ codigo: accion, descripcion: DESCRIPTIONS[accion], rut_responsable: signer.identity.holderRut ?? business.rut, fecha: at.toISOString(), origen: "timbre" }));
  return deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(receivedDocuments)
      .set({ estado, eventos: [...row.eventos, ...added], registryCheckAt: null, updatedAt: at })
      .where(and(eq(receivedDocuments.id, row.id), eq(receivedDocuments.estado, row.estado), eq(receivedDocuments.updatedAt, row.updatedAt)))
      .returning();
    if (!updated) throw conflict("already_decided", "another decision on this document was recorded at the same time");
    await queueAnswers(deps, tx, business, signer, updated, answer, addresses);
    await recordEvent(tx, { businessId: row.businessId, environment: row.environment, event: "received.decided", at, data: eventData(updated, { accion: actions.join("+"), origen: "timbre", ...extra }) });
    return updated;
  });
}

/** Accepts (ACD; also ERM with `recibo_mercaderias`, which may follow an earlier ACD). */
export async function acceptReceived(deps: Deps, scope: BusinessScope, id: string, input: AcceptInput): Promise<ReceivedDocumentRow> {
  const row = await current(deps, await findReceived(deps, scope, id));
  checkDecidable(row);
  if (!row.verified) throw conflict("not_verified", "a document that failed verification can only be claimed");
  const hasAcd = row.eventos.some((e) => e.codigo === "ACD");
  const hasErm = row.eventos.some((e) => e.codigo === "ERM");
  const wantsErm = input.recibo_mercaderias === true;
  const actions: ReceiverAction[] = [...(hasAcd ? [] : (["ACD"] as const)), ...(wantsErm && !hasErm ? (["ERM"] as const) : [])];
  if (actions.length === 0 || (row.estado === "ACEPTADO" && !wantsErm)) throw conflict("already_decided", "the document was already accepted");
  const business = await readBusinessRow(deps, scope.businessId);
  const recinto = input.recinto ?? `${business?.direccion ?? ""}, ${business?.comuna ?? ""}`;
  const answer: AnswerDecision = { estado: 0, glosa: "ACEPTADO OK", ...(actions.includes("ERM") ? { recibo: { recinto } } : {}) };
  return apply(deps, scope, row, actions, "ACEPTADO", answer, {});
}

/** Claims (RCD/RFP/RFT): allowed for unverified documents too (they can only be claimed). */
export async function claimReceived(deps: Deps, scope: BusinessScope, id: string, input: ClaimInput): Promise<ReceivedDocumentRow> {
  const row = await current(deps, await findReceived(deps, scope, id));
  checkDecidable(row);
  if (row.estado === "ACEPTADO") throw conflict("already_decided", "the document was already accepted: it can no longer be claimed");
  const answer: AnswerDecision = { estado: 2, glosa: `RECHAZADO - ${input.accion} ${input.motivo}` };
  return apply(deps, scope, row, [input.accion], "RECLAMADO", answer, { motivo: input.motivo });
}
