import { bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";

/** Failed logins, one row each, counted per email over a sliding 15-minute window. */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("login_attempts_email_idx").on(t.email, t.createdAt)],
);
