/** Shared column helpers: text ids, timestamps with time zone as `Date`. */
import { text, timestamp } from "drizzle-orm/pg-core";

export const idColumn = () => text("id").primaryKey();
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => at("created_at").notNull().defaultNow();
export const updatedAt = () => at("updated_at").notNull().defaultNow();
