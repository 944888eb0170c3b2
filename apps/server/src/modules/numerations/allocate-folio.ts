/**
 * Hands out the next folio of a tipo (ARCHITECTURE.md §2): inside the caller's transaction, one
 * `UPDATE … SET siguiente = siguiente + 1 WHERE id = (SELECT … FOR UPDATE) RETURNING` locks the oldest active range
 * (lowest FA, then lowest desde — core's `pickRange` order; exhausted and expired ranges skipped) and takes its
 * next folio. The row lock makes it
 * safe across any number of server processes; a waiter that finds the range exhausted after the lock moves on to
 * the next range (PostgreSQL re-checks the WHERE on the locked row). The folio is lost to nobody: if the
 * caller's transaction rolls back, so does the increment.
 */
import type { Caf } from "@timbre/core/caf";
import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Environment } from "../../db/api-keys.js";
import { numerations } from "../../db/numerations.js";
import type { Tx } from "../../db/tx.js";
import type { Deps } from "../../deps.js";
import { ApiError } from "../../http/errors.js";
import { cafFromRow } from "./load-caf.js";

export { loadCaf } from "./load-caf.js";

export interface AllocateFolioInput {
  businessId: string;
  environment: Environment;
  tipo: number;
  /** `YYYY-MM-DD` in Chile (`chileToday`): ranges expiring on or before it are skipped. */
  today: string;
}

export interface AllocatedFolio {
  numerationId: string;
  folio: number;
  caf: Caf;
}

export async function allocateFolio(tx: Tx, deps: Pick<Deps, "secrets" | "now">, input: AllocateFolioInput): Promise<AllocatedFolio> {
  const oldestActive = tx
    .select({ id: numerations.id })
    .from(numerations)
    .where(
      and(
        eq(numerations.businessId, input.businessId),
        eq(numerations.environment, input.environment),
        eq(numerations.tipo, input.tipo),
        sql`${numerations.siguiente} <= ${numerations.hasta}`,
        or(isNull(numerations.venceEl), gt(numerations.venceEl, input.today)),
      ),
    )
    .orderBy(asc(numerations.fechaAutorizacion), asc(numerations.desde), asc(numerations.id))
    .limit(1)
    .for("update");
  const at = deps.now().toISOString();
  // One statement: the sub-select locks the range (a waiter re-checks it after the lock and, when it is exhausted
  // by then, LIMIT moves on to the next range), the UPDATE takes the folio.
  const [taken] = await tx
    .update(numerations)
    .set({
      siguiente: sql`${numerations.siguiente} + 1`,
      exhaustedAt: sql`case when ${numerations.siguiente} >= ${numerations.hasta} then ${at}::timestamptz else ${numerations.exhaustedAt} end`,
    })
    .where(eq(numerations.id, sql`(${oldestActive})`))
    .returning({ id: numerations.id, siguiente: numerations.siguiente, cafFileEnc: numerations.cafFileEnc });
  if (!taken) {
    throw new ApiError("FOLIOS_EXHAUSTED", `no active numeration with free folios for tipo ${input.tipo} in ${input.environment}`, {
      tipo: input.tipo,
      environment: input.environment,
    });
  }
  return { numerationId: taken.id, folio: taken.siguiente - 1, caf: cafFromRow(deps, taken) };
}
