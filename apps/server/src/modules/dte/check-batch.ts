/**
 * `POST /v1/dte/batch/preview` — an extension (API.md has no batch check): what `POST /dte/batch` would answer for
 * each document, without emitting. Every check an emission makes — schema and domain rules, references, the
 * certificate and the authorisation — and whether the tipo's free folios cover the documents before it in the batch;
 * each valid document gets its totals. No folio is taken and nothing is stored; ≤ 500 documents, one request for the
 * rate limit, like the batch. A spreadsheet can so be fixed before anything is emitted, instead of after half of it
 * was. It is a check, not a promise: folios taken meanwhile by other emissions are not reserved.
 */
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { numerations } from "../../db/numerations.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { chileToday } from "../../time.js";
import { foliosExhausted } from "../numerations/allocate-folio.js";
import { batchItemError, type BatchItemError } from "./batch-item-error.js";
import { loadScopeBusiness, prepareEmission } from "./prepare-emission.js";
import { presentTotals } from "./preview-document.js";

export interface CheckedItem {
  index: number;
  success: boolean;
  data?: { totals: ReturnType<typeof presentTotals> };
  error?: BatchItemError;
}

interface FreeRange {
  tipo: number;
  fechaAutorizacion: string;
  free: number;
}

/** The free folios of the scope's usable ranges (not exhausted, not expired today), with their authorisation dates. */
async function freeRanges(deps: Deps, scope: BusinessScope): Promise<FreeRange[]> {
  const today = chileToday(deps.now());
  const rows = await deps.db
    .select({ tipo: numerations.tipo, fechaAutorizacion: numerations.fechaAutorizacion, free: sql<number>`${numerations.hasta} - ${numerations.siguiente} + 1` })
    .from(numerations)
    .where(
      and(
        eq(numerations.businessId, scope.businessId),
        eq(numerations.environment, scope.environment),
        lte(numerations.siguiente, numerations.hasta),
        or(isNull(numerations.venceEl), gt(numerations.venceEl, today)),
      ),
    );
  return rows.map((r) => ({ ...r, free: Number(r.free) }));
}

export async function checkBatch(deps: Deps, scope: BusinessScope, bodies: unknown[]): Promise<{ results: CheckedItem[] }> {
  const business = await loadScopeBusiness(deps, scope).catch(() => undefined);
  const ranges = await freeRanges(deps, scope);
  const taken = new Map<number, number>();
  const results: CheckedItem[] = [];
  for (const [index, body] of bodies.entries()) {
    try {
      const prepared = await prepareEmission(deps, scope, body, { business });
      const { tipo } = prepared.input;
      const fecha = prepared.request.fecha;
      // A document dated before a range's authorisation cannot take its folios (allocate-folio.ts).
      const free = ranges.filter((r) => r.tipo === tipo && r.fechaAutorizacion <= fecha).reduce((sum, r) => sum + r.free, 0);
      const wanted = (taken.get(tipo) ?? 0) + 1;
      if (wanted > free) throw foliosExhausted({ tipo, environment: scope.environment, fecha });
      taken.set(tipo, wanted);
      results.push({ index, success: true, data: { totals: presentTotals(prepared.totals) } });
    } catch (error) {
      results.push({ index, success: false, error: batchItemError(deps, index, error) });
    }
  }
  return { results };
}
