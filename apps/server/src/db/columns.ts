/** Shared column helpers: text ids, timestamps with time zone as `Date`; a column's bare name in raw SQL. */
import { sql } from "drizzle-orm";
import { text, timestamp } from "drizzle-orm/pg-core";

export const idColumn = () => text("id").primaryKey();
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => at("created_at").notNull().defaultNow();
export const updatedAt = () => at("updated_at").notNull().defaultNow();

/** A column's unqualified, quoted name, for raw SQL where drizzle would qualify it (an INSERT's column list, say). */
export const columnName = (c: { name: string }) => sql.identifier(c.name);
