import { text } from "drizzle-orm/pg-core";
import { pgTable } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "./columns.js";

export const users = pgTable("users", {
  id: idColumn(),
  /** Lower-cased, unique. */
  email: text("email").notNull().unique(),
  /** argon2id (PHC string from Bun.password). */
  passwordHash: text("password_hash").notNull(),
  nombre: text("nombre").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type UserRow = typeof users.$inferSelect;
