/**
 * A period's sales by tipo, as an accountant reads them for the monthly IVA return (F29): how many documents, net,
 * exempt, IVA and total per tipo, and the débito fiscal — the IVA of facturas, boletas and debit notes less that of
 * credit notes. Documents the SII rejected do not count; those still waiting for its answer do, and are counted
 * apart so the reader knows the figures may move. Boletas' IVA is summed per document; the SII's own daily summary
 * may differ by a few pesos of rounding. A help for the return, not the return.
 */
import type { Dte } from "@timbre/sdk";

export interface SummaryRow {
  tipo: number;
  documentos: number;
  monto_neto: number;
  monto_exento: number;
  monto_iva: number;
  monto_total: number;
}

export interface SalesSummary {
  rows: SummaryRow[];
  /** IVA of 33, 39 and 56 less IVA of 61. */
  debito_fiscal: number;
  /** Totals of every tipo, credit notes subtracted. */
  total_neto_de_notas: number;
  /** RECHAZADO documents left out. */
  rechazados: number;
  /** PENDIENTE or ENVIADO documents included while the SII has not answered. */
  sin_respuesta: number;
}

const CREDIT_NOTE = 61;

export function summarizeSales(documents: readonly Dte[]): SalesSummary {
  const byTipo = new Map<number, SummaryRow>();
  let rechazados = 0;
  let sinRespuesta = 0;
  for (const d of documents) {
    if (d.estado === "RECHAZADO") {
      rechazados += 1;
      continue;
    }
    if (d.estado === "PENDIENTE" || d.estado === "ENVIADO") sinRespuesta += 1;
    const row = byTipo.get(d.tipo) ?? { tipo: d.tipo, documentos: 0, monto_neto: 0, monto_exento: 0, monto_iva: 0, monto_total: 0 };
    row.documentos += 1;
    row.monto_neto += d.monto_neto;
    row.monto_exento += d.monto_exento;
    row.monto_iva += d.monto_iva;
    row.monto_total += d.monto_total;
    byTipo.set(d.tipo, row);
  }
  const rows = [...byTipo.values()].sort((a, b) => a.tipo - b.tipo);
  const sign = (row: SummaryRow) => (row.tipo === CREDIT_NOTE ? -1 : 1);
  return {
    rows,
    debito_fiscal: rows.reduce((sum, r) => sum + sign(r) * r.monto_iva, 0),
    total_neto_de_notas: rows.reduce((sum, r) => sum + sign(r) * r.monto_total, 0),
    rechazados,
    sin_respuesta: sinRespuesta,
  };
}

/** `2026-11` → its first and last day. */
export function monthRange(month: string): { desde: string; hasta: string } | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) return null;
  const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
  return { desde: `${month}-01`, hasta: `${month}-${String(last).padStart(2, "0")}` };
}
