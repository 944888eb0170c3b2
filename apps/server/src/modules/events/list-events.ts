/** `GET /v1/events`: the scope's events, newest first, optional `event` filter, each with its delivery log. */
import { and, asc, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import { events, webhookDeliveries } from "../../db/events.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import type { PageRequest } from "../../http/envelope.js";
import { presentEvent, type DeliveryRowView, type EventView } from "./present-event.js";

export async function listEvents(deps: Deps, scope: BusinessScope, page: PageRequest, kind: string | null): Promise<{ items: EventView[]; total: number }> {
  const filters: SQL[] = [eq(events.businessId, scope.businessId), eq(events.environment, scope.environment)];
  if (kind !== null) filters.push(eq(events.event, kind));
  const where = and(...filters);
  const [total] = await deps.db.select({ n: count() }).from(events).where(where);
  const rows = await deps.db
    .select()
    .from(events)
    .where(where)
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  const log = await deliveriesOf(deps, rows.map((r) => r.id));
  return { items: rows.map((r) => presentEvent(r, log.get(r.id) ?? [])), total: total?.n ?? 0 };
}

export async function deliveriesOf(deps: Deps, eventIds: string[]): Promise<Map<string, DeliveryRowView[]>> {
  const out = new Map<string, DeliveryRowView[]>();
  if (eventIds.length === 0) return out;
  const rows = await deps.db
    .select({ eventId: webhookDeliveries.eventId, attempt: webhookDeliveries.attempt, at: webhookDeliveries.at, statusCode: webhookDeliveries.statusCode, state: webhookDeliveries.state })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.eventId, eventIds))
    .orderBy(asc(webhookDeliveries.attempt), asc(webhookDeliveries.createdAt));
  for (const r of rows) {
    const list = out.get(r.eventId) ?? [];
    list.push(r);
    out.set(r.eventId, list);
  }
  return out;
}
