/** The ReceivedDocument of API.md §12 from its row. */
import type { Static } from "@sinclair/typebox";
import type { ReceivedDocumentRow } from "../../db/received.js";
import type { ReceivedDocument } from "./schemas.js";

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function presentReceived(row: ReceivedDocumentRow): PresentedReceived {
  const { firma, timbre, caf, receptor, ...rest } = row.verificacion;
  return {
    id: row.id,
    emisor: { rut: row.emisorRut, razon_social: row.emisorRazonSocial, giro: row.emisorGiro },
    tipo: row.tipo,
    folio: row.folio,
    fecha: row.fecha,
    monto_neto: row.montoNeto,
    monto_exento: row.montoExento,
    monto_iva: row.montoIva,
    monto_total: row.montoTotal,
    items: row.items,
    referencias: row.referencias,
    recibido_at: row.recibidoAt.toISOString(),
    recibido_sii_at: iso(row.recibidoSiiAt),
    plazo_hasta: iso(row.plazoHasta),
    estado: row.estado,
    eventos: row.eventos,
    verificacion: { firma: firma ?? "invalida", timbre: timbre ?? "invalido", caf: caf ?? "ilegible", receptor: receptor ?? "otro_receptor", ...rest },
    superseded_by: row.supersededBy,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
  };
}

export type PresentedReceived = Static<typeof ReceivedDocument>;
