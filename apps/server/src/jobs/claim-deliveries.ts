/**
 * Claims due webhook deliveries. A row is one attempt (`db/events.ts`): `pending` until tried, then `delivered`,
 * `retrying` (failed; the next attempt is a new `pending` row due later) or `failed` (failed; no attempt left).
 *
 * The delivery row is written in the same transaction as the change it reports (`recordEvent`), so it is the
 * durable source of truth; the pg-boss job of a round (`boss-loop.ts`) only says when to look, and the round
 * claims the rows themselves, which works the same on PGlite and PostgreSQL and loses nothing on restart.
 *
 * A claim is one statement that stamps `at` (the attempt's start, also the claim token) and moves `due_at`
 * forward by a lease longer than the request timeout; the HTTP call happens outside any transaction. If the
 * process dies mid-attempt the lease runs out and another worker tries again (at-least-once). Results are written
 * only while `at` still matches the claim, so a late result never overwrites a newer claim.
 */
import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { businesses, type BusinessRow } from "../db/businesses.js";
import { events, webhookDeliveries, type EventRow } from "../db/events.js";
import type { Db } from "../db/open-database.js";

export interface ClaimedDelivery {
  id: string;
  attempt: number;
  /** The claim token: the row's `at` as written by this claim. */
  claimedAt: Date;
  event: EventRow;
  business: BusinessRow | null;
}

export async function claimDeliveries(db: Db, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  // One statement: the due rows are locked (skipping rows another worker holds) by the subquery and stamped.
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.state, "pending"), lte(webhookDeliveries.dueAt, now)))
    .orderBy(asc(webhookDeliveries.dueAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ at: now, dueAt: new Date(now.getTime() + leaseMs) })
    .where(inArray(webhookDeliveries.id, due))
    .returning({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId, attempt: webhookDeliveries.attempt });
  if (claimed.length === 0) return [];
  const eventRows = await db.select().from(events).where(inArray(events.id, [...new Set(claimed.map((c) => c.eventId))]));
  const byEvent = new Map(eventRows.map((e) => [e.id, e]));
  const businessRows = await db.select().from(businesses).where(inArray(businesses.id, [...new Set(eventRows.map((e) => e.businessId))]));
  const byBusiness = new Map(businessRows.map((b) => [b.id, b]));
  const out: ClaimedDelivery[] = [];
  for (const c of claimed) {
    const event = byEvent.get(c.eventId);
    if (!event) continue; // impossible (foreign key)
    out.push({ id: c.id, attempt: c.attempt, claimedAt: now, event, business: byBusiness.get(event.businessId) ?? null });
  }
  return out;
}
