/**
 * `POST /v1/events/:id/resend`: makes a delivery due now. If a retry is already waiting (not yet claimed) it is
 * brought forward instead of adding a second one; otherwise a new attempt is queued. The retry schedule counts
 * attempts per event, so a resend after the automatic attempts ran out is a single attempt (resend again if it
 * fails). 404 for another tenant's or environment's event; 409 when the business has no webhook URL.
 */
import { and, desc, eq, isNull, max } from "drizzle-orm";
import { businesses } from "../../db/businesses.js";
import { events, webhookDeliveries } from "../../db/events.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError, notFound } from "../../http/errors.js";
import { newId } from "../../ids.js";

export interface ResendView {
  id: string;
  attempt: number;
  due_at: string;
}

export async function resendEvent(deps: Deps, scope: BusinessScope, eventId: string): Promise<ResendView> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: events.id, webhookUrl: businesses.webhookUrl })
      .from(events)
      .innerJoin(businesses, eq(businesses.id, events.businessId))
      .where(and(eq(events.id, eventId), eq(events.businessId, scope.businessId), eq(events.environment, scope.environment)));
    if (!row) throw notFound("event");
    if (!row.webhookUrl) throw new ApiError("CONFLICT", "the business has no webhook URL", { reason: "no_webhook_url" });
    const [waiting] = await tx
      .select({ id: webhookDeliveries.id, attempt: webhookDeliveries.attempt })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.state, "pending"), isNull(webhookDeliveries.at)))
      .orderBy(desc(webhookDeliveries.attempt))
      .limit(1)
      .for("update");
    if (waiting) {
      await tx.update(webhookDeliveries).set({ dueAt: now }).where(eq(webhookDeliveries.id, waiting.id));
      return { id: eventId, attempt: waiting.attempt, due_at: now.toISOString() };
    }
    const [last] = await tx.select({ n: max(webhookDeliveries.attempt) }).from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
    const attempt = (last?.n ?? 0) + 1;
    await tx.insert(webhookDeliveries).values({ id: newId("delivery"), eventId, attempt, state: "pending", dueAt: now });
    return { id: eventId, attempt, due_at: now.toISOString() };
  });
}
