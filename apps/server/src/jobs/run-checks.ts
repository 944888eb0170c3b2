/**
 * The periodic checks (numerations, certificate) in one transaction under a transaction-scoped advisory lock, so
 * that when several processes run them at the same moment only one does the work (the others skip the round).
 */
import { sql } from "drizzle-orm";
import type { Deps } from "../deps.js";
import { rowsOf } from "../db/rows.js";
import { checkCertificates } from "./check-certificates.js";
import { checkNumerations } from "./check-numerations.js";

const CHECKS_LOCK = 7_341_120_002;

/** Returns the number of events recorded, or null when another process holds the round. */
export async function runChecks(deps: Deps): Promise<number | null> {
  return deps.db.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${CHECKS_LOCK}) as ok`));
    if (!lock?.ok) return null;
    const now = deps.now();
    return (await checkNumerations(tx, now)) + (await checkCertificates(tx, now));
  });
}
