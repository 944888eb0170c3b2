/** The public event object (API.md §6.6): the delivered fields plus the delivery log. */
import type { EventRow } from "../../db/events.js";

export interface DeliveryView {
  attempt: number;
  at: string | null;
  status_code: number | null;
  ok: boolean;
}

export interface EventView {
  id: string;
  event: string;
  environment: string;
  business_id: string;
  created_at: string;
  data: Record<string, unknown>;
  deliveries: DeliveryView[];
}

export interface DeliveryRowView {
  attempt: number;
  at: Date | null;
  statusCode: number | null;
  state: string;
}

export function presentEvent(row: EventRow, deliveries: DeliveryRowView[]): EventView {
  return {
    id: row.id,
    event: row.event,
    environment: row.environment,
    business_id: row.businessId,
    created_at: row.createdAt.toISOString(),
    data: row.data,
    // Attempts made, not the retry waiting for its time (it has no `at` yet, and "ok: false" would read as a failure).
    deliveries: deliveries.filter((d) => d.at !== null).map((d) => ({ attempt: d.attempt, at: d.at?.toISOString() ?? null, status_code: d.statusCode, ok: d.state === "delivered" })),
  };
}
