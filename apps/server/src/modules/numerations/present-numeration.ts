import { available, rangeStatus, usedFolios } from "@timbre/core/folios";
import type { Static } from "@sinclair/typebox";
import type { NumerationRow } from "../../db/numerations.js";
import type { Numeration } from "./schemas.js";

export type NumerationView = Static<typeof Numeration>;

/** The public numeration object (API.md §6.4), counters and `estado` live on `today` — never the CAF key. */
export function presentNumeration(row: NumerationRow, today: string): NumerationView {
  const range = { desde: row.desde, hasta: row.hasta, siguiente: row.siguiente, expiresOn: row.venceEl };
  return {
    id: row.id,
    business_id: row.businessId,
    tipo: row.tipo,
    desde: row.desde,
    hasta: row.hasta,
    siguiente_folio: row.siguiente,
    disponibles: available(range),
    usados: usedFolios(range),
    fecha_autorizacion: row.fechaAutorizacion,
    vence_el: row.venceEl,
    environment: row.environment,
    estado: rangeStatus(range, today),
    created_at: row.createdAt.toISOString(),
  };
}
