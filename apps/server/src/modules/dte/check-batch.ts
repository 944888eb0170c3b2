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
import { ApiError } from "../../http/errors.js";
import { batchItemError, type BatchItemError } from "./batch-item-error.js";
import { lookUpDocumentKeys, splitDocumentKeys } from "./document-keys.js";
import { documentsByIds } from "./find-document.js";
import { computationOf } from "./stored-document.js";
import { loadScopeBusiness, prepareEmission } from "./prepare-emission.js";
import { presentTotals } from "./present-totals.js";

export interface CheckedItem {
  index: number;
  success: boolean;
  /** `document`: the one the item's `idempotency_key` names, which the batch would answer without emitting. */
  data?: { totals: ReturnType<typeof presentTotals>; document?: EmittedBefore };
  error?: BatchItemError;
  /** Already emitted under the item's `idempotency_key` (`document-keys.ts`): the batch takes no folio for it. */
  replayed?: true;
}

/** What the check says of a document emitted before under the item's key. */
interface EmittedBefore {
  id: string;
  tipo: number;
  folio: number;
  estado: string;
  fecha_emision: string;
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

/** `keyScope`: the Idempotency-Key scope of the request's credential, where the documents' own keys are looked up. */
export async function checkBatch(deps: Deps, scope: BusinessScope, bodies: unknown[], keyScope: string): Promise<{ results: CheckedItem[] }> {
  const business = await loadScopeBusiness(deps, scope).catch(() => undefined);
  const ranges = await freeRanges(deps, scope);
  const keyed = await splitDocumentKeys(bodies);
  const keys = await lookUpDocumentKeys(deps, keyScope, new Map(keyed.flatMap(({ key, hash }, index) => (key && hash ? [[index, { key, hash }] as const] : []))));
  const emittedBefore = await documentsByIds(deps, scope, [...keys.values()].flatMap((k) => (!(k instanceof ApiError) && k.kind === "emitted" ? [k.documentId] : [])));
  const taken = new Map<number, number>();
  const results: CheckedItem[] = [];
  for (const [index, { body, problem }] of keyed.entries()) {
    try {
      if (problem) throw problem;
      const key = keys.get(index);
      if (key instanceof ApiError) throw key;
      if (key?.kind === "failed") throw key.error;
      if (key?.kind === "emitted") {
        const row = emittedBefore.get(key.documentId);
        if (!row) throw new ApiError("IDEMPOTENCY_KEY_REUSED", "this idempotency_key names a document of another business or environment");
        results.push({ index, success: true, replayed: true, data: { totals: presentTotals(computationOf(row).totals), document: { id: row.id, tipo: row.tipo, folio: row.folio, estado: row.estado, fecha_emision: row.fechaEmision.toISOString() } } });
        continue;
      }
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
