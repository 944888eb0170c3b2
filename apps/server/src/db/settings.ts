import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";

/** Instance-wide values shared by every server process (e.g. the sandbox SII's authority key, sealed). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});
