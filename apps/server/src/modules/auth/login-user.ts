import { and, count, eq, gt, lt } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { loginAttempts } from "../../db/login-attempts.js";
import { nowAndThen } from "../../db/housekeeping.js";
import { users } from "../../db/users.js";
import { ApiError } from "../../http/errors.js";
import { issueSession, type SessionTokens } from "./issue-session.js";
import { verifyNothing, verifyPassword } from "./passwords.js";
import { presentUser, type UserView } from "./present-user.js";

export const MAX_FAILED_LOGINS = 10;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;

/** Email + password → a new session; at most 10 failures per email per 15 minutes (then 429). */
export async function loginUser(deps: Deps, input: { email: string; password: string }): Promise<{ user: UserView } & SessionTokens> {
  const email = input.email.trim().toLowerCase();
  const now = deps.now();
  const since = new Date(now.getTime() - FAILED_LOGIN_WINDOW_MS);
  const [failures] = await deps.db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, email), gt(loginAttempts.createdAt, since)));
  if ((failures?.n ?? 0) >= MAX_FAILED_LOGINS) {
    const retryAfter = Math.ceil(FAILED_LOGIN_WINDOW_MS / 1000);
    throw new ApiError("RATE_LIMITED", "too many failed logins for this email; try again later", { retry_after: retryAfter });
  }
  const [user] = await deps.db.select().from(users).where(eq(users.email, email));
  const valid = user ? await verifyPassword(input.password, user.passwordHash) : await verifyNothing(input.password);
  if (!user || !valid) {
    await deps.db.insert(loginAttempts).values({ email, createdAt: now });
    nowAndThen(0.01, () => deps.db.delete(loginAttempts).where(lt(loginAttempts.createdAt, since)));
    throw new ApiError("INVALID_CREDENTIALS", "wrong email or password");
  }
  return { user: presentUser(user), ...(await issueSession(deps, user.id)) };
}
