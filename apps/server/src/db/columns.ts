/** Shared column helpers: text ids, timestamps with time zone as `Date`; a column's bare name in raw SQL. */
import { sql } from "drizzle-orm";
import { bigint, text, timestamp } from "drizzle-orm/pg-core";

export const idColumn = () => text("id").primaryKey();
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
/**
 * A folio or a bound of a folio range: the SII's folios have up to 10 digits (beyond int4). Read as a number — exact
 * below 2^53 — by drizzle, and by raw statements through each driver's int8 parser (`open-database.ts`).
 */
export const folioColumn = (name: string) => bigint(name, { mode: "number" });
export const createdAt = () => at("created_at").notNull().defaultNow();
export const updatedAt = () => at("updated_at").notNull().defaultNow();

/** A column's unqualified, quoted name, for raw SQL where drizzle would qualify it (an INSERT's column list, say). */
export const columnName = (c: { name: string }) => sql.identifier(c.name);
