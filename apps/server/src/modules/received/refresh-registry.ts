/**
 * Brings a received 33/34/43 up to date with the SII's registry: its reception instant (`recibido_sii_at`,
 * `plazo_hasta`), decisions taken at sii.cl or by another system (`origen: "sii"`, `received.decided`), and
 * `ACEPTADO_TACITO` once the 8 days passed without a decision. Sets when to ask again (`registry_check_at`).
 */
import { and, eq } from "drizzle-orm";
import { receivedDocuments, type ReceivedDocumentRow, type ReceivedEvent, type ReceivedState } from "../../db/received.js";
import type { Deps } from "../../deps.js";
import { recordEvent } from "../dte/change-state.js";
import { askRegistry, deadlineOf } from "./registry.js";

const MINUTE = 60_000;
const ACCEPTING = new Set(["ACD", "ERM"]);
const CLAIMS = new Set(["RCD", "RFP", "RFT"]);

/** The state the events say (claims win: one claim excludes acceptance), or the tacit acceptance after the deadline. */
export function stateFromEvents(eventos: ReceivedEvent[], plazoHasta: Date | null, now: Date): ReceivedState {
  if (eventos.some((e) => CLAIMS.has(e.codigo))) return "RECLAMADO";
  if (eventos.some((e) => ACCEPTING.has(e.codigo))) return "ACEPTADO";
  if (plazoHasta !== null && now.getTime() > plazoHasta.getTime()) return "ACEPTADO_TACITO";
  return "SIN_RESPUESTA";
}

/** Timbre's own events plus the registry's that Timbre did not record (same code), oldest first. */
function merge(own: ReceivedEvent[], sii: ReceivedEvent[]): ReceivedEvent[] {
  const mine = own.filter((e) => e.origen === "timbre");
  const fromSii = sii.filter((e) => !mine.some((m) => m.codigo === e.codigo));
  return [...mine, ...fromSii].sort((a, b) => String(a.fecha).localeCompare(String(b.fecha)));
}

/** Asks the registry and stores what changed; null when the registry said nothing usable (asked again later). */
export async function refreshRegistry(deps: Deps, row: ReceivedDocumentRow): Promise<ReceivedDocumentRow | null> {
  const now = deps.now();
  const answer = await askRegistry(deps, row);
  if (answer === null) {
    await deps.db.update(receivedDocuments).set({ registryCheckAt: new Date(now.getTime() + 10 * MINUTE) }).where(eq(receivedDocuments.id, row.id));
    return null;
  }
  const recibidoSiiAt = answer.recibidoSiiAt ?? row.recibidoSiiAt;
  const plazoHasta = recibidoSiiAt === null ? null : deadlineOf(recibidoSiiAt);
  const eventos = merge(row.eventos, answer.eventos);
  const estado = stateFromEvents(eventos, plazoHasta, now);
  const settled = estado === "RECLAMADO" || (estado !== "SIN_RESPUESTA" && eventos.some((e) => e.codigo === "ERM"));
  const registryCheckAt = settled || (plazoHasta !== null && now.getTime() > plazoHasta.getTime() + 24 * 60 * MINUTE)
    ? null
    : new Date(now.getTime() + (recibidoSiiAt === null ? 10 : 6 * 60) * MINUTE);
  const decidedElsewhere = estado !== row.estado && estado !== "SIN_RESPUESTA";
  return deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(receivedDocuments)
      .set({ recibidoSiiAt, plazoHasta, eventos, estado, registryCheckAt, updatedAt: now })
      .where(and(eq(receivedDocuments.id, row.id), eq(receivedDocuments.updatedAt, row.updatedAt)))
      .returning();
    if (!updated) return null; // changed meanwhile (a decision): the next check sees it
    if (decidedElsewhere) {
      await recordEvent(tx, {
        businessId: row.businessId,
        environment: row.environment,
        event: "received.decided",
        at: now,
        data: { received_id: row.id, emisor_rut: row.emisorRut, tipo: row.tipo, folio: row.folio, estado, plazo_hasta: plazoHasta?.toISOString() ?? null, origen: "sii" },
      });
    }
    return updated;
  });
}
