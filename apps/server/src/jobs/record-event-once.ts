/**
 * Records an event unless one of the same kind already exists for the same subject: `subject` is a part of `data`
 * (e.g. `{ numeration_id, threshold }`) matched with jsonb containment, so "once per subject per threshold" needs
 * no extra table.
 */
import { and, eq, sql } from "drizzle-orm";
import { events } from "../db/events.js";
import type { Tx } from "../db/tx.js";
import { recordEvent, type NewEvent } from "../modules/dte/change-state.js";

export async function recordEventOnce(tx: Tx, event: NewEvent, subject: Record<string, unknown>): Promise<string | null> {
  const [existing] = await tx
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        eq(events.businessId, event.businessId),
        eq(events.environment, event.environment),
        eq(events.event, event.event),
        sql`${events.data} @> ${JSON.stringify(subject)}::jsonb`,
      ),
    )
    .limit(1);
  if (existing) return null;
  return recordEvent(tx, { ...event, data: { ...event.data, ...subject } });
}
