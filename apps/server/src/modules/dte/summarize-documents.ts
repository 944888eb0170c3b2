/**
 * `GET /v1/dte/resumen?desde&hasta` (an extension of API.md): the period's sales by tipo, as an accountant reads them
 * for the monthly IVA return (F29) — documents, net, exempt, IVA and total per tipo, and the débito fiscal: the IVA
 * of facturas, boletas and debit notes less that of credit notes. Guías de despacho (52) are listed by tipo but add
 * nothing to the débito fiscal or the total: the factura that follows a guía carries the sale. Documents the SII
 * rejected do not count (they are counted apart); those still waiting for its answer (PENDIENTE, ENVIADO) do, and
 * are counted apart too, so the reader knows the figures may still move. One aggregate query over the (business, environment, fecha) index, so a
 * month of a million boletas is one request, not ten thousand pages. Boletas' IVA is summed per document; the SII's
 * own daily summary may differ by a few pesos of rounding.
 *
 * Whose IVA the débito fiscal counts (BRIEF-doctypes §1–§2): a factura de compra (46, and its notes) counts the
 * IVA its issuer, the buyer, retains — that is the buyer's to pay; the IVA not retained is the seller's débito. A
 * liquidación-factura (43, and the notes that repeat one) counts the IVA of the agent's commissions — the IVA of
 * the settled sales is the principal's débito. Their `tipos` rows keep the documents' own IVA.
 *
 * `impuestos_adicionales` (ILA and the like, by code and rate, credit notes subtracted) are read from each document's
 * stored totals, only for the documents whose total is more than neto + exento + IVA: a second query that finds
 * nothing to unnest for a month of boletas.
 */
import type { Static } from "@sinclair/typebox";
import type { LiquidationDocumentInput, PurchaseDocumentInput } from "@timbre/core";
import { computeLiquidationTotals, computePurchaseTotals } from "@timbre/core/totals";
import type { AnyDocumentInput } from "@timbre/core/xml";
import { and, eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { documents } from "../../db/documents.js";
import { rowsOf } from "../../db/rows.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { invalidParameter } from "../../http/errors.js";
import { readFilters } from "./list-documents.js";
import type { SalesSummarySchema } from "./schemas.js";
import { familyOfInput } from "./tipo-inputs.js";

/** The answer, as its schema (OpenAPI) says. */
export type SalesSummary = Static<typeof SalesSummarySchema>;
type TipoSummary = SalesSummary["tipos"][number];

const CREDIT_NOTE = 61;
const EXPORT_CREDIT_NOTE = 112;
const DISPATCH_GUIDE = 52;

export async function summarizeDocuments(deps: Deps, scope: BusinessScope, query: Record<string, string | undefined>): Promise<SalesSummary> {
  for (const name of ["desde", "hasta"] as const) {
    if (!query[name]) throw invalidParameter(name, "required", `${name} is required (YYYY-MM-DD): the summary covers a period`);
  }
  const period = readFilters({ desde: query.desde, hasta: query.hasta });
  const counted = sql`${documents.estado} <> 'RECHAZADO'`;
  const sum = (column: AnyColumn) => sql<string>`coalesce(sum(${column}) filter (where ${counted}), 0)::text`;
  const scoped = and(eq(documents.businessId, scope.businessId), eq(documents.environment, scope.environment), ...period);
  const rows = await deps.db
    .select({
      tipo: documents.tipo,
      documentos: sql<string>`(count(*) filter (where ${counted}))::text`,
      montoNeto: sum(documents.montoNeto),
      montoExento: sum(documents.montoExento),
      montoIva: sum(documents.montoIva),
      montoTotal: sum(documents.montoTotal),
      rechazados: sql<string>`(count(*) filter (where ${documents.estado} = 'RECHAZADO'))::text`,
      sinRespuesta: sql<string>`(count(*) filter (where ${documents.estado} in ('PENDIENTE', 'ENVIADO')))::text`,
    })
    .from(documents)
    .where(scoped)
    .groupBy(documents.tipo)
    .orderBy(documents.tipo);
  const tipos = rows
    .map((r) => ({ tipo: r.tipo, documentos: Number(r.documentos), monto_neto: Number(r.montoNeto), monto_exento: Number(r.montoExento), monto_iva: Number(r.montoIva), monto_total: Number(r.montoTotal) }))
    .filter((t) => t.documentos > 0);
  // A guía de despacho (52) moves goods; the factura that follows it carries the sale and its IVA.
  // An export credit note (112) takes away like a 61; exports count in pesos (their rows' monto_total).
  const sign = (t: TipoSummary) => (t.tipo === CREDIT_NOTE || t.tipo === EXPORT_CREDIT_NOTE ? -1 : t.tipo === DISPATCH_GUIDE ? 0 : 1);
  return {
    desde: query.desde!,
    hasta: query.hasta!,
    tipos,
    debito_fiscal: tipos.reduce((total, t) => total + sign(t) * t.monto_iva, 0) + (await issuerShareAdjustment(deps, scoped!, counted)),
    total_neto_de_notas: tipos.reduce((total, t) => total + sign(t) * t.monto_total, 0),
    impuestos_adicionales: await additionalTaxes(deps, scoped!, counted),
    rechazados: rows.reduce((total, r) => total + Number(r.rechazados), 0),
    sin_respuesta: rows.reduce((total, r) => total + Number(r.sinRespuesta), 0),
  };
}

/** The period's additional taxes by code and rate, credit notes subtracted (as the débito fiscal is). */
async function additionalTaxes(deps: Deps, scoped: SQL, counted: SQL): Promise<SalesSummary["impuestos_adicionales"]> {
  const signed = (field: string) =>
    sql.raw(`sum(case when tipo = ${CREDIT_NOTE} then -(t->>'${field}')::bigint else (t->>'${field}')::bigint end)::text`);
  const result = await deps.db.execute(sql`
    select (t->>'codigo')::int as codigo, t->>'tasa' as tasa, ${signed("base")} as base, ${signed("monto")} as monto
    from ${documents} cross join lateral jsonb_array_elements(${documents.computed} -> 'totals' -> 'impuestosAdicionales') as t
    where ${scoped} and ${counted} and ${documents.montoTotal} <> ${documents.montoNeto} + ${documents.montoExento} + ${documents.montoIva}
    group by 1, 2 order by 1, 2`);
  return rowsOf<{ codigo: number; tasa: string; base: string; monto: string }>(result).map((r) => ({
    codigo: Number(r.codigo),
    tasa: Number(r.tasa),
    base: Number(r.base),
    monto: Number(r.monto),
  }));
}

/**
 * What the débito fiscal must add to the documents' own IVA for the 46s, the 43s and their notes: the issuer's
 * share (IVA retained; commissions' IVA) less the document's IVA, notes' credit subtracted. Read from the stored
 * inputs of those documents only (a 56/61 is one when its total is not neto + exento + IVA: a note on a 46 retains,
 * one on a 43 deducts commissions; a classic note with additional taxes finds nothing to adjust).
 */
async function issuerShareAdjustment(deps: Deps, scoped: SQL, counted: SQL): Promise<number> {
  const result = await deps.db.execute(sql`
    select ${documents.tipo} as tipo, ${documents.montoIva}::text as iva, ${documents.computed} -> 'input' as input
    from ${documents}
    where ${scoped} and ${counted} and (${documents.tipo} in (43, 46)
      or (${documents.tipo} in (56, 61) and ${documents.montoTotal} <> ${documents.montoNeto} + ${documents.montoExento} + ${documents.montoIva}))`);
  return rowsOf<{ tipo: number; iva: string; input: AnyDocumentInput }>(result).reduce((total, r) => {
    const family = familyOfInput(r.input);
    const share = family === "liquidation" ? computeLiquidationTotals(r.input as LiquidationDocumentInput).totalComisiones.montoIva
      : family === "purchase" ? computePurchaseTotals(r.input as PurchaseDocumentInput).montoIvaRetenido
      : Number(r.iva);
    return total + (Number(r.tipo) === CREDIT_NOTE ? -1 : 1) * (share - Number(r.iva));
  }, 0);
}
