import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at, createdAt } from "./columns.js";

/** Stored responses of POSTs sent with `Idempotency-Key` (API.md §5); the body is sealed (it may hold a key). */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    /** `null` while the first request is still running. */
    responseStatus: integer("response_status"),
    responseBodyEnc: text("response_body_enc"),
    /**
     * The resource the first request created, written in the same transaction as the resource itself (emission):
     * if that process dies before storing its answer, a retry gets the resource instead of a second one.
     */
    resourceId: text("resource_id"),
    /**
     * The server process running the first request (`deps.instanceId`): when that process is gone (`liveness.ts`),
     * a retry need not wait for the request to count as abandoned. Null on rows from before migration 0008.
     */
    owner: text("owner"),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
