/**
 * The receiver's side of the SII's registry of acceptances and claims (BRIEF-intercambio §3): when the SII received a
 * document (`plazo_hasta`), the events it lists, and registering a decision, with the registry's answer codes mapped
 * to API errors as API.md §12 says. In sandbox mode the sandbox SII plays the registry for documents other
 * businesses of the same sandbox uploaded.
 */
import { SiiAuthError, SiiTransientError, type ReceiverAction, type ReceiverEvent } from "@timbre/sii";
import type { ReceivedDocumentRow, ReceivedEvent } from "../../db/received.js";
import type { Deps } from "../../deps.js";
import { openSiiSession, type SessionOpener } from "../../dispatch/sii-session.js";
import { ApiError } from "../../http/errors.js";
import { chileTimestamp, fromChileTimestamp } from "../dte/chile-time.js";

/** Tipos the registry covers. */
export const REGISTRY_TIPOS: ReadonlySet<number> = new Set([33, 34, 43]);

const DAY_MS = 24 * 3600 * 1000;

/** `plazo_hasta`: the SII's reception instant read in America/Santiago plus 8 calendar days (same wall time). */
export function deadlineOf(recibidoSiiAt: Date): Date {
  const local = chileTimestamp(recibidoSiiAt);
  const day = new Date(Date.parse(`${local.slice(0, 10)}T00:00:00Z`) + 8 * DAY_MS).toISOString().slice(0, 10);
  return fromChileTimestamp(`${day}${local.slice(10)}`) ?? new Date(recibidoSiiAt.getTime() + 8 * DAY_MS);
}

const unavailable = (error: unknown) =>
  new ApiError("UNAVAILABLE", "the tax authority's registry did not answer; nothing was recorded, try again", { reason: "tax_authority" }, error);

async function session(deps: Deps, row: ReceivedDocumentRow, openSession?: SessionOpener) {
  return openSession ? openSession(row.businessId, row.environment) : openSiiSession(deps, row.businessId, row.environment);
}

const query = (row: ReceivedDocumentRow) => ({ rutEmisor: row.emisorRut, tipo: row.tipo, folio: row.folio });

export const presentRegistryEvent = (e: ReceiverEvent): ReceivedEvent => ({
  codigo: e.codigo,
  descripcion: e.descripcion,
  rut_responsable: e.rutResponsable,
  fecha: e.fecha === null ? null : (fromChileTimestamp(e.fecha)?.toISOString() ?? e.fecha),
  origen: "sii",
});

/** What the registry knows of the document now: its reception instant and events, or null when it said nothing usable. */
export async function askRegistry(deps: Deps, row: ReceivedDocumentRow, openSession?: SessionOpener): Promise<{ recibidoSiiAt: Date | null; eventos: ReceivedEvent[] } | null> {
  try {
    const s = await session(deps, row, openSession);
    const reception = await s.client.getSiiReceptionDate(query(row));
    const recibidoSiiAt = reception === null ? null : fromChileTimestamp(reception);
    if (recibidoSiiAt === null) return { recibidoSiiAt: null, eventos: [] };
    const listed = await s.client.listReceiverEvents(query(row));
    return { recibidoSiiAt, eventos: listed.codigo === 15 ? listed.eventos.map(presentRegistryEvent) : [] };
  } catch (error) {
    if (error instanceof SiiTransientError || error instanceof SiiAuthError) return null;
    if (error instanceof ApiError) return null; // no certificate yet: nothing can be asked
    throw error;
  }
}

/** Already decided (5, 6, 7, 11, 12, 13, 19), the 8 days passed (8), not at the SII (18, 9, 10). */
const CONFLICTS: Record<number, string> = { 5: "already_decided", 6: "already_decided", 7: "already_decided", 11: "already_decided", 12: "already_decided", 13: "already_decided", 19: "already_decided", 8: "deadline_passed", 18: "not_at_sii", 9: "not_at_sii", 10: "not_at_sii" };

/**
 * Registers one action; returns on codResp 0, throws the mapped error otherwise (409 with `details.reason`, 422
 * `SII_REFUSED` with the code, 503 when the SII did not answer — then nothing is recorded).
 */
export async function registerDecision(deps: Deps, row: ReceivedDocumentRow, accion: ReceiverAction): Promise<void> {
  let answer;
  try {
    answer = await (await session(deps, row)).client.registerReceiverAction({ ...query(row), accion });
  } catch (error) {
    if (error instanceof SiiTransientError || error instanceof SiiAuthError) throw unavailable(error);
    throw error;
  }
  if (answer.codigo === 0) return;
  if (answer.codigo === -1) throw unavailable(null);
  const reason = CONFLICTS[answer.codigo];
  if (reason !== undefined) throw new ApiError("CONFLICT", `the SII's registry refused ${accion}: ${answer.descripcion}`, { reason, sii_codigo: answer.codigo });
  throw new ApiError("SII_REFUSED", `the SII's registry refused ${accion}: ${answer.descripcion}`, { codigo: answer.codigo });
}
