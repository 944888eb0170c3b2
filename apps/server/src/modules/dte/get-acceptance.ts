/**
 * `GET /v1/dte/:id/aceptacion` (extension): the receiver's acceptance or claim of a factura as the SII's registry
 * records it (`dispatch/acceptance.ts`), `?refresh=true` asking the SII now. `estado`:
 * - `NO_APLICA`: not in the registry (boletas, notes, rejected documents);
 * - `SIN_CONSULTAR`: not asked yet (the SII has not accepted the factura yet — a refresh then asks nothing — or the
 *   first check is still to come);
 * - `SIN_RESPUESTA`: within the 8 days, no acceptance or claim;
 * - `ACEPTADO` (ACD or ERM), `RECLAMADO` (RCD, RFP or RFT), `ACEPTADO_TACITO` (8 days without a claim).
 * An SII that does not answer a refresh leaves the last answer in place (as `/status?refresh=true` does).
 */
import type { AcceptanceSnapshot, DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import { ACCEPTANCE_TIPOS, CLAIM_WINDOW_MS } from "../../dispatch/acceptance.js";
import { hasAcceptance, refreshAcceptance } from "../../dispatch/refresh-acceptance.js";
import type { BusinessScope } from "../../http/auth.js";
import { wakeWorkers } from "../../jobs/start-workers.js";
import { findDocument } from "./find-document.js";

type Row = Pick<DocumentRow, "id" | "tipo" | "folio" | "estado" | "acceptance" | "acceptanceCheckAt">;

export function presentAcceptance(row: Row) {
  const snapshot: AcceptanceSnapshot | null = row.acceptance;
  const applies = ACCEPTANCE_TIPOS.has(row.tipo) && row.estado !== "RECHAZADO";
  const plazo = snapshot?.recibido_sii_at ? new Date(Date.parse(snapshot.recibido_sii_at) + CLAIM_WINDOW_MS).toISOString() : null;
  return {
    id: row.id,
    tipo: row.tipo,
    folio: row.folio,
    estado: !applies ? ("NO_APLICA" as const) : (snapshot?.estado ?? ("SIN_CONSULTAR" as const)),
    eventos: snapshot?.eventos ?? [],
    recibido_sii_at: snapshot?.recibido_sii_at ?? null,
    plazo_hasta: plazo,
    consultado_at: snapshot?.consultado_at ?? null,
    proxima_consulta_at: hasAcceptance(row) ? (row.acceptanceCheckAt?.toISOString() ?? null) : null,
  };
}

export async function getAcceptance(deps: Deps, scope: BusinessScope, id: string, refresh: boolean) {
  const row = await findDocument(deps, scope, id);
  if (!refresh || !hasAcceptance(row)) return presentAcceptance(row);
  const refreshed = await refreshAcceptance(deps, row.id);
  if (refreshed?.changed) wakeWorkers(deps, "webhooks");
  return presentAcceptance(await findDocument(deps, scope, id));
}
