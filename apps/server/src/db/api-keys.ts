import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, idColumn } from "./columns.js";
import { businesses } from "./businesses.js";
import { users } from "./users.js";

export type Environment = "test" | "live";

/** API keys: only the SHA-256 of the key plus its first 12 and last 4 characters are kept. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: idColumn(),
    userId: text("user_id").notNull().references(() => users.id),
    businessId: text("business_id").notNull().references(() => businesses.id),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    prefix: text("prefix").notNull(),
    last4: text("last4").notNull(),
    environment: text("environment").$type<Environment>().notNull(),
    permissions: jsonb("permissions").$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: at("last_used_at"),
    revokedAt: at("revoked_at"),
  },
  (t) => [index("api_keys_user_idx").on(t.userId), index("api_keys_business_idx").on(t.businessId)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
