/**
 * Hands out the next folios of a tipo, inside the caller's transaction. Each step is one
 * statement: a CTE locks the oldest active range (lowest FA, then lowest desde — core's `pickRange` order;
 * exhausted and expired ranges skipped, and those authorised after the documents' tax date) with `FOR UPDATE` and the UPDATE takes as many of its folios as are still
 * wanted (at most what it has left); when it has fewer, the next step continues in the next range. The row lock
 * makes it safe across any number of server processes; a waiter that finds the range exhausted after the lock
 * moves on to the next range (PostgreSQL re-checks the WHERE on the locked row). The folios are lost to nobody: if
 * the caller's transaction rolls back, so does the increment.
 */
import type { Caf } from "@timbre/core/caf";
import { sql, type SQL } from "drizzle-orm";
import type { Environment } from "../../db/api-keys.js";
import { rowsOf } from "../../db/rows.js";
import type { Tx } from "../../db/tx.js";
import type { Deps } from "../../deps.js";
import { ApiError } from "../../http/errors.js";
import { cafFromRow } from "./load-caf.js";
import { becomesLow } from "./low-folios.js";

export { loadCaf } from "./load-caf.js";

export interface AllocateFolioInput {
  businessId: string;
  environment: Environment;
  tipo: number;
  /** `YYYY-MM-DD` in Chile (`chileToday`): ranges expiring on or before it are skipped. */
  today: string;
  /**
   * The documents' tax date (`FchEmis`, default `today`): ranges authorised after it are skipped — the SII rejects a
   * document dated before its CAF's authorisation (HED-3-305), so a back-dated document takes an older range.
   */
  fecha?: string;
}

export interface AllocatedFolio {
  numerationId: string;
  folio: number;
  caf: Caf;
}

/** Consecutive folios `first … first + count − 1` of one range. */
export interface AllocatedRun {
  numerationId: string;
  first: number;
  count: number;
  caf: Caf;
  /** The range's last folio. */
  hasta: number;
  /** This allocation left the range low (`numeration.low`) where it was not before. */
  becameLow: boolean;
}

export function foliosExhausted(input: Pick<AllocateFolioInput, "tipo" | "environment" | "fecha">): ApiError {
  const authorised = input.fecha === undefined ? "" : ` authorised on or before ${input.fecha}`;
  return new ApiError("FOLIOS_EXHAUSTED", `no active numeration with free folios for tipo ${input.tipo} in ${input.environment}${authorised}`, {
    tipo: input.tipo,
    environment: input.environment,
    ...(input.fecha === undefined ? {} : { fecha: input.fecha }),
  });
}

/**
 * The condition on range `alias` (of `numerations`) that a document dated `fecha` may take folios from it `today`:
 * folios left, not expired, authorised on or before its date. Among those the oldest goes first: by
 * `fecha_autorizacion`, `desde`, `id`.
 */
export function eligibleRange(alias: string, today: SQL | string, fecha: SQL | string): SQL {
  const r = sql.raw(alias);
  return sql`${r}.siguiente <= ${r}.hasta and (${r}.vence_el is null or ${r}.vence_el > ${today}) and ${r}.fecha_autorizacion <= ${fecha}`;
}

/**
 * Takes up to `count` folios, oldest range first, possibly from several ranges. Returns fewer (down to none) when
 * the active ranges run out; the caller decides what a shortfall means.
 */
export async function allocateFolios(tx: Tx, deps: Pick<Deps, "secrets" | "now">, input: AllocateFolioInput & { count: number }): Promise<AllocatedRun[]> {
  const runs: AllocatedRun[] = [];
  const at = deps.now().toISOString();
  let wanted = input.count;
  while (wanted > 0) {
    const result = await tx.execute(sql`
      with picked as (
        select id, siguiente, hasta from numerations r
        where business_id = ${input.businessId} and environment = ${input.environment} and tipo = ${input.tipo}
          and ${eligibleRange("r", input.today, input.fecha ?? input.today)}
        order by fecha_autorizacion, desde, id
        limit 1
        for update
      )
      update numerations n
      set siguiente = picked.siguiente + least(${wanted}::int, picked.hasta - picked.siguiente + 1),
          exhausted_at = case when picked.siguiente + ${wanted}::int > picked.hasta then ${at}::timestamptz else n.exhausted_at end
      from picked
      where n.id = picked.id
      returning n.id, picked.siguiente as first, n.siguiente - picked.siguiente as count, n.desde, n.hasta, n.caf_file_enc`);
    const [taken] = rowsOf<{ id: string; first: number; count: number; desde: number; hasta: number; caf_file_enc: string }>(result);
    if (!taken) break;
    const count = Number(taken.count);
    const first = Number(taken.first);
    const range = { desde: Number(taken.desde), hasta: Number(taken.hasta) };
    const becameLow = becomesLow(range, first, count);
    runs.push({ numerationId: taken.id, first, count, caf: cafFromRow(deps, { id: taken.id, cafFileEnc: taken.caf_file_enc }), hasta: range.hasta, becameLow });
    wanted -= count;
  }
  return runs;
}

/** One folio, or FOLIOS_EXHAUSTED. */
export async function allocateFolio(tx: Tx, deps: Pick<Deps, "secrets" | "now">, input: AllocateFolioInput): Promise<AllocatedFolio> {
  const [run] = await allocateFolios(tx, deps, { ...input, count: 1 });
  if (!run) throw foliosExhausted(input);
  return { numerationId: run.numerationId, folio: run.first, caf: run.caf };
}
