/** The public DTE objects of API.md §6.3. */
import { asc, eq } from "drizzle-orm";
import { documentHistory, type DocumentHead, type DocumentRow, type SiiStatusSnapshot } from "../../db/documents.js";
import type { Executor } from "../../db/tx.js";
import type { IntercambioView } from "./intercambio-view.js";
import { presentAdditionalTaxes } from "./present-totals.js";
import { computationOf, requestOf } from "./stored-document.js";
import { familyOfInput, tipoExtras } from "./tipo-inputs.js";

export interface DteView {
  id: string;
  tipo: number;
  folio: number;
  fecha_emision: string;
  fecha: string;
  receptor: { rut: string; razon_social: string | null };
  monto_neto: number;
  monto_exento: number;
  monto_iva: number;
  monto_total: number;
  estado: string;
  track_id: string | null;
  pdf_url: string;
  xml_url: string;
  environment: string;
  created_at: string;
  /** 110–112 (API.md §13). */
  moneda?: string;
  tipo_cambio?: number;
  monto_total_pesos?: number;
}

export interface HistoryView {
  estado: string;
  at: string;
  detalle?: string;
}

/**
 * Reads the row's head (lists select no payload). Given the whole row (emission, batch, `GET /dte/{id}`), a 46, 43 or
 * export adds its own amounts (`tipoExtras`, API.md §13): an export's `monto_exento`/`monto_total` are then in its
 * currency, with `monto_total_pesos`; a list, which reads no payload, shows the same from the row's currency columns.
 */
export function presentDocument(row: DocumentHead | DocumentRow): DteView {
  const computed = "computed" in row && row.computed ? computationOf(row) : null;
  const extras = computed && familyOfInput(computed.input) !== "classic" ? tipoExtras(computed.input) : {};
  return {
    ...presentHead(row),
    ...extras,
  };
}

function presentHead(row: DocumentHead): DteView {
  return {
    id: row.id,
    tipo: row.tipo,
    folio: row.folio,
    fecha_emision: row.fechaEmision.toISOString(),
    fecha: row.fecha,
    receptor: { rut: row.receptorRut, razon_social: row.receptorRazonSocial },
    monto_neto: row.montoNeto,
    monto_exento: row.montoExento,
    monto_iva: row.montoIva,
    monto_total: row.montoTotal,
    estado: row.estado,
    track_id: row.trackId,
    pdf_url: `/v1/dte/${row.id}/pdf`,
    xml_url: `/v1/dte/${row.id}/xml`,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    ...currencyFields(row),
  };
}

/**
 * An export's amounts in its currency (all of an export is exempt), its rate and its pesos, from the row (API.md
 * §13); nothing for other tipos, and for an export stored before the row had these columns (it shows its pesos).
 */
function currencyFields(row: DocumentHead): Partial<DteView> {
  if (row.moneda === null || row.montoTotalMoneda === null || row.tipoCambio === null) return {};
  const total = Number(row.montoTotalMoneda);
  return { moneda: row.moneda, tipo_cambio: Number(row.tipoCambio), monto_exento: total, monto_total: total, monto_total_pesos: row.montoTotal };
}

export async function historyOf(db: Executor, documentId: string): Promise<HistoryView[]> {
  const rows = await db.select().from(documentHistory).where(eq(documentHistory.documentId, documentId)).orderBy(asc(documentHistory.at), asc(documentHistory.id));
  return rows.map((h) => (h.detalle ? { estado: h.estado, at: h.at.toISOString(), detalle: h.detalle } : { estado: h.estado, at: h.at.toISOString() }));
}

/**
 * The emission response plus what the document was made of: the whole receptor, the lines with their computed
 * `monto`, the references as resolved at emission, the options that shaped the totals (`precios_brutos` as
 * applied: false on exempt tipos), a guía's `traslado` and `transporte`, and the history. Enough to start a note that corrects it.
 */
export function presentDetail(row: DocumentRow, historial: HistoryView[], intercambio: IntercambioView) {
  const { totals } = computationOf(row);
  const request = requestOf(row);
  // `exento` as applied: every line of an exempt tipo (34, 41) is exempt whether or not the request said so
  const items = (request.items ?? []).map((item, i) => ({ ...item, exento: totals.lines[i]?.exento ?? item.exento ?? false, monto: totals.lines[i]?.montoItem ?? 0 }));
  const head = presentDocument(row);
  const taxes = presentAdditionalTaxes(totals);
  return {
    ...head,
    receptor: { ...request.receptor, ...head.receptor },
    precios_brutos: totals.preciosBrutos,
    ...(request.forma_pago === undefined ? {} : { forma_pago: request.forma_pago }),
    ...(request.descuento_global_porcentaje === undefined ? {} : { descuento_global_porcentaje: request.descuento_global_porcentaje }),
    ...(request.observaciones === undefined ? {} : { observaciones: request.observaciones }),
    ...(taxes.length === 0 ? {} : { impuestos_adicionales: taxes }),
    ...(request.traslado === undefined ? {} : { traslado: request.traslado }),
    ...(request.transporte === undefined ? {} : { transporte: request.transporte }),
    items,
    ...(familyOfInput(computationOf(row).input) === "classic" ? {} : tipoRequestFields(request as unknown as Record<string, unknown>)),
    referencias: request.referencias ?? [],
    historial,
    intercambio,
  };
}

export const EMPTY_SII: SiiStatusSnapshot = {
  estado_envio: null,
  glosa: null,
  aceptados: null,
  rechazados: null,
  reparos: null,
  errores: [],
  consultado_at: null,
};

/** What a 43 or an export was made of beyond a classic document's fields, as requested. */
function tipoRequestFields(request: Record<string, unknown>): Record<string, unknown> {
  const keys = ["liquidacion", "moneda", "forma_pago_exportacion", "fecha_cancelacion", "exportacion"];
  return Object.fromEntries(keys.filter((k) => request[k] !== undefined).map((k) => [k, request[k]]));
}
