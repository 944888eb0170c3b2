import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import type { Environment } from "./api-keys.js";
import { businesses } from "./businesses.js";
import { at, createdAt, idColumn } from "./columns.js";

/** Events of a business/environment (API.md §6.6). Written in the same transaction as the change they report. */
export const events = pgTable(
  "events",
  {
    id: idColumn(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    environment: text("environment").$type<Environment>().notNull(),
    event: text("event").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("events_business_idx").on(t.businessId, t.environment, t.createdAt)],
);

export type EventRow = typeof events.$inferSelect;

/**
 * Durable webhook deliveries: one row per (event, attempt). `state` pending → delivered | retrying | failed.
 * Workers claim due rows with `FOR UPDATE SKIP LOCKED`, so any number of processes share the work.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: idColumn(),
    eventId: text("event_id").notNull().references(() => events.id),
    attempt: integer("attempt").notNull(),
    state: text("state").$type<"pending" | "delivered" | "retrying" | "failed">().notNull(),
    dueAt: at("due_at").notNull(),
    at: at("at"),
    statusCode: integer("status_code"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_deliveries_due_idx").on(t.state, t.dueAt), index("webhook_deliveries_event_idx").on(t.eventId)],
);
