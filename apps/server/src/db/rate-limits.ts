import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at } from "./columns.js";

/** Fixed one-minute windows shared by every server process. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    bucket: text("bucket").notNull(),
    windowStart: at("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);
