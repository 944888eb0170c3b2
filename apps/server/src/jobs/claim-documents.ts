/**
 * Claims documents due for a worker (`estado` + `next_check_at`) with `FOR UPDATE SKIP LOCKED` in one statement
 * that moves `next_check_at` forward by a lease (the claim token); the SII calls run outside it.
 * The emission code owns the back-off: its functions set `next_check_at`/`check_attempts` whenever they learn
 * something. `releaseDocument` only covers the case where they did not (an error, "too early to tell"): if the
 * lease is still in place, the next check follows the same schedule (`nextCheckAt` of `dispatch/sii-session.ts`).
 */
import { and, asc, eq, inArray, isNull, lt, lte, or } from "drizzle-orm";
import { isFinalState } from "@timbre/core/lifecycle";
import { documents, type DocumentState } from "../db/documents.js";
import type { Db } from "../db/open-database.js";

export interface ClaimedDocument {
  id: string;
  /** The lease written by the claim (the claim token). */
  leaseUntil: Date;
}

export interface ClaimOptions {
  estado: DocumentState;
  now: Date;
  limit: number;
  leaseMs: number;
  /** Documents without `next_check_at` are taken once their last update is older than this (null: at once). */
  unscheduledAfterMs: number | null;
}

export async function claimDocuments(db: Db, o: ClaimOptions): Promise<ClaimedDocument[]> {
  const unscheduled =
    o.unscheduledAfterMs === null
      ? isNull(documents.nextCheckAt)
      : and(isNull(documents.nextCheckAt), lt(documents.updatedAt, new Date(o.now.getTime() - o.unscheduledAfterMs)));
  const leaseUntil = new Date(o.now.getTime() + o.leaseMs);
  // One statement: the due rows are locked (skipping rows another worker holds) by the subquery and stamped.
  const due = db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.estado, o.estado), or(lte(documents.nextCheckAt, o.now), unscheduled)))
    .orderBy(asc(documents.nextCheckAt))
    .limit(o.limit)
    .for("update", { skipLocked: true });
  const rows = await db.update(documents).set({ nextCheckAt: leaseUntil }).where(inArray(documents.id, due)).returning({ id: documents.id });
  return rows.map((r) => ({ id: r.id, leaseUntil }));
}

/**
 * Ends a claim the emission code did not reschedule: a final document gets no next check, others the back-off
 * `schedule(attempts)` with the attempt counted. No-op when someone else set `next_check_at` meanwhile.
 */
export async function releaseDocument(db: Db, claimed: ClaimedDocument, schedule: (attempts: number) => Date): Promise<void> {
  const [row] = await db
    .select({ estado: documents.estado, checkAttempts: documents.checkAttempts })
    .from(documents)
    .where(and(eq(documents.id, claimed.id), eq(documents.nextCheckAt, claimed.leaseUntil)));
  if (!row) return;
  const attempts = row.checkAttempts + 1;
  const set = isFinalState(row.estado) ? { nextCheckAt: null } : { nextCheckAt: schedule(attempts), checkAttempts: attempts };
  await db
    .update(documents)
    .set(set)
    .where(and(eq(documents.id, claimed.id), eq(documents.estado, row.estado), eq(documents.nextCheckAt, claimed.leaseUntil)));
}

export async function documentState(db: Db, id: string): Promise<DocumentState | null> {
  const [row] = await db.select({ estado: documents.estado }).from(documents).where(eq(documents.id, id));
  return row?.estado ?? null;
}
