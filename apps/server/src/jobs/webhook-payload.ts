/** The delivered JSON (API.md §6.6): spec fields plus identifiers. The exact text is what gets signed. */
import type { EventRow } from "../db/events.js";

export function webhookPayload(event: EventRow): string {
  return JSON.stringify({
    id: event.id,
    event: event.event,
    environment: event.environment,
    business_id: event.businessId,
    created_at: event.createdAt.toISOString(),
    data: event.data,
  });
}
