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
import { inArray, sql } from "drizzle-orm";
import { businesses, type BusinessRow } from "../db/businesses.js";
import { events, type EventRow } from "../db/events.js";
import type { Db } from "../db/open-database.js";
import { rowsOf } from "../db/rows.js";

export interface ClaimedDelivery {
  id: string;
  attempt: number;
  /** The claim token: the row's `at` as written by this claim. */
  claimedAt: Date;
  event: EventRow;
  business: BusinessRow | null;
}

export interface ClaimShare {
  /** Attempts one business may have in flight in this worker. */
  perBusiness: number;
  /** Attempts in flight in this worker now, by business id. */
  inFlight: ReadonlyMap<string, number>;
}

/**
 * Claims up to `limit` due attempts, oldest first, with at most `share.perBusiness` in flight per business: a
 * business whose receiver is slow (or whose backlog is large) takes its share of the worker, not all of it, and the
 * rows of a business already at its share are skipped, so the others' newer rows are not stuck behind its backlog.
 * A claim may return fewer than `limit` when one business filled its share among the oldest rows; the worker then
 * claims again (that business is skipped the next time).
 */
export async function claimDeliveries(db: Db, now: Date, limit: number, leaseMs: number, share?: ClaimShare): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const perBusiness = share?.perBusiness ?? limit;
  const allowance: Record<string, number> = {};
  for (const [business, n] of share?.inFlight ?? []) allowance[business] = Math.max(0, perBusiness - n);
  const full = Object.keys(allowance).filter((b) => allowance[b] === 0);
  const nowIso = now.toISOString();
  // One statement: the due rows are locked (skipping rows another worker holds), ranked within their business,
  // cut to each business's allowance and stamped. Rows locked but not picked are free again when it ends.
  const result = await db.execute(sql`
    with due as (
      select d.id, d.due_at, e.business_id
      from webhook_deliveries d join events e on e.id = d.event_id
      where d.state = 'pending' and d.due_at <= ${nowIso}::timestamptz
        ${full.length > 0 ? sql`and e.business_id not in (${sql.join(full.map((b) => sql`${b}`), sql`, `)})` : sql``}
      order by d.due_at
      limit ${limit}
      for update of d skip locked
    ), picked as (
      select id from (
        select id, due_at, business_id, row_number() over (partition by business_id order by due_at) as rn from due
      ) ranked
      where rn <= coalesce((${JSON.stringify(allowance)}::jsonb ->> business_id)::int, ${perBusiness})
      order by due_at
      limit ${limit}
    )
    update webhook_deliveries w set at = ${nowIso}::timestamptz, due_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
    from picked where w.id = picked.id
    returning w.id, w.event_id as "eventId", w.attempt`);
  const claimed = rowsOf<{ id: string; eventId: string; attempt: number }>(result);
  if (claimed.length === 0) return [];
  const eventRows = await db.select().from(events).where(inArray(events.id, [...new Set(claimed.map((c) => c.eventId))]));
  const byEvent = new Map(eventRows.map((e) => [e.id, e]));
  const businessRows = await db.select().from(businesses).where(inArray(businesses.id, [...new Set(eventRows.map((e) => e.businessId))]));
  const byBusiness = new Map(businessRows.map((b) => [b.id, b]));
  const out: ClaimedDelivery[] = [];
  for (const c of claimed) {
    const event = byEvent.get(c.eventId);
    if (!event) continue; // impossible (foreign key)
    out.push({ id: c.id, attempt: Number(c.attempt), claimedAt: now, event, business: byBusiness.get(event.businessId) ?? null });
  }
  return out;
}
