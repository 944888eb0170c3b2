/**
 * Claims documents due for a worker (`estado` + `next_check_at`) with `FOR UPDATE SKIP LOCKED` in one statement
 * that moves `next_check_at` forward by a lease (the claim token); the SII calls run outside it.
 * The emission code owns the back-off: its functions set `next_check_at`/`check_attempts` whenever they learn
 * something. `releaseDocument` only covers the case where they did not (an error, "too early to tell"): if the
 * lease is still in place, the next check follows the same schedule (`nextCheckAt` of `dispatch/sii-session.ts`).
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { isFinalState } from "@timbre/core/lifecycle";
import { documents, envelopes, type DocumentState } from "../db/documents.js";
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
  return leaseDue(db, and(eq(documents.estado, o.estado), or(lte(documents.nextCheckAt, o.now), unscheduled)), o.limit, new Date(o.now.getTime() + o.leaseMs));
}

/**
 * One statement: the rows `due` selects, oldest due first and at most `limit`, are locked (skipping rows another
 * worker holds) by the subquery and stamped with the lease.
 */
async function leaseDue(db: Db, due: SQL | undefined, limit: number, leaseUntil: Date): Promise<ClaimedDocument[]> {
  const locked = db.select({ id: documents.id }).from(documents).where(due).orderBy(asc(documents.nextCheckAt)).limit(limit).for("update", { skipLocked: true });
  const rows = await db.update(documents).set({ nextCheckAt: leaseUntil }).where(inArray(documents.id, locked)).returning({ id: documents.id });
  return rows.map((r) => ({ id: r.id, leaseUntil }));
}

/** The document is in no envelope another poller holds (those would fill every batch until that poller ends). */
const notInHeldEnvelope = (now: Date) =>
  sql`not exists (select 1 from ${envelopes} where ${envelopes.id} = ${documents.envelopeId} and ${envelopes.pollLeaseUntil} > ${now.toISOString()}::timestamptz)`;

/** Due documents claimed through their envelopes' leases (`claimByEnvelope`); `end` lifts those leases. */
export interface EnvelopeClaim {
  documents: ClaimedDocument[];
  end: () => Promise<void>;
}

/**
 * The status poller's claim: the due documents of `estado`, oldest due first, claimed per ENVELOPE — one row written
 * per envelope (`envelopes.poll_lease_until`) instead of a lease written on each document, which costs a row version
 * and an entry in every one of the documents' indexes (bench/RESULTS.md §6). The documents of an envelope another
 * poller holds are left to it. A document's claim token (`leaseUntil`) is then its `next_check_at` as read, so
 * `releaseDocument` still reschedules it only when nobody else did. Documents in no envelope (marked sent by a
 * reconciliation) are claimed one by one as before. Call `end` once they are settled: a lease left in place would
 * hold back the envelope's documents rescheduled sooner than it expires (it expires after `leaseMs` anyway, for a
 * poller that died).
 */
export async function claimByEnvelope(db: Db, o: Omit<ClaimOptions, "unscheduledAfterMs">): Promise<EnvelopeClaim> {
  const due = await db
    .select({ id: documents.id, envelopeId: documents.envelopeId, nextCheckAt: documents.nextCheckAt })
    .from(documents)
    .where(and(eq(documents.estado, o.estado), lte(documents.nextCheckAt, o.now), notInHeldEnvelope(o.now)))
    .orderBy(asc(documents.nextCheckAt))
    .limit(o.limit);
  const leaseUntil = new Date(o.now.getTime() + o.leaseMs);
  const envelopeIds = [...new Set(due.flatMap((d) => (d.envelopeId === null ? [] : [d.envelopeId])))];
  const leased = envelopeIds.length === 0 ? [] : await db
    .update(envelopes)
    .set({ pollLeaseUntil: leaseUntil })
    .where(and(inArray(envelopes.id, envelopeIds), or(isNull(envelopes.pollLeaseUntil), lte(envelopes.pollLeaseUntil, o.now))))
    .returning({ id: envelopes.id });
  const held = new Set(leased.map((e) => e.id));
  const loose = due.filter((d) => d.envelopeId === null).map((d) => d.id);
  const single = loose.length === 0 ? [] : await leaseDue(db, and(inArray(documents.id, loose), eq(documents.estado, o.estado), lte(documents.nextCheckAt, o.now)), loose.length, leaseUntil);
  const claimed: ClaimedDocument[] = [
    ...due.flatMap((d) => (d.envelopeId !== null && held.has(d.envelopeId) && d.nextCheckAt ? [{ id: d.id, leaseUntil: d.nextCheckAt }] : [])),
    ...single,
  ];
  return {
    documents: claimed,
    end: async () => {
      if (held.size > 0) await db.update(envelopes).set({ pollLeaseUntil: null }).where(and(inArray(envelopes.id, [...held]), eq(envelopes.pollLeaseUntil, leaseUntil)));
    },
  };
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
