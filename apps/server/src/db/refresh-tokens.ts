import { index, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, idColumn } from "./columns.js";
import { users } from "./users.js";

/** Opaque refresh tokens, stored hashed; one family per login, rotated on every use. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: idColumn(),
    userId: text("user_id").notNull().references(() => users.id),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: at("expires_at").notNull(),
    /** Set when rotated (used) or when its family was revoked. */
    revokedAt: at("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [index("refresh_tokens_family_idx").on(t.familyId)],
);

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
