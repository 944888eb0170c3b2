import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { users } from "../../db/users.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { isUniqueViolation } from "../../db/pg-errors.js";
import { issueSession, type SessionTokens } from "./issue-session.js";
import { hashPassword } from "./passwords.js";
import { presentUser, type UserView } from "./present-user.js";

export interface RegisterInput {
  email: string;
  password: string;
  nombre: string;
}

export async function registerUser(deps: Deps, input: RegisterInput): Promise<{ user: UserView } & SessionTokens> {
  const email = input.email.trim().toLowerCase();
  const [taken] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (taken) throw emailTaken();
  const now = deps.now();
  try {
    const [row] = await deps.db
      .insert(users)
      .values({ id: newId("user"), email, passwordHash: await hashPassword(input.password), nombre: input.nombre.trim(), createdAt: now, updatedAt: now })
      .returning();
    if (!row) throw new Error("insert returned nothing");
    return { user: presentUser(row), ...(await issueSession(deps, row.id)) };
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

const emailTaken = () => new ApiError("CONFLICT", "this email is already registered", { reason: "email_taken", field: "email" });
