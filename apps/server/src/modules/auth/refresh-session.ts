import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { refreshTokens } from "../../db/refresh-tokens.js";
import { users } from "../../db/users.js";
import { ApiError } from "../../http/errors.js";
import { issueSession, type SessionTokens } from "./issue-session.js";
import { presentUser, type UserView } from "./present-user.js";
import { hashToken } from "./session-tokens.js";

const refused = () => new ApiError("UNAUTHORIZED", "invalid or expired refresh token");

/**
 * Rotates a refresh token: the presented one dies and a new one of the same family is issued. Presenting a
 * dead token (reuse: it was stolen or replayed) revokes the whole family, and with it the family's access tokens
 * (`session-family.ts`). The new token is stored before the old one is retired, so the family is never seen
 * without a live token; if another request retired the old one first, the family (new token included) is revoked.
 */
export async function refreshSession(deps: Deps, refreshToken: string): Promise<{ user: UserView } & SessionTokens> {
  const now = deps.now();
  const [row] = await deps.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(refreshToken)));
  if (!row) throw refused();
  if (row.revokedAt !== null) return revokeFamily(deps, row.familyId, now);
  if (row.expiresAt.getTime() <= now.getTime()) {
    await deps.db.update(refreshTokens).set({ revokedAt: now }).where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.revokedAt)));
    throw refused();
  }
  const [user] = await deps.db.select().from(users).where(eq(users.id, row.userId));
  if (!user) throw refused();
  const session = await issueSession(deps, user.id, row.familyId);
  const claimed = await deps.db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (claimed.length === 0) return revokeFamily(deps, row.familyId, now);
  return { user: presentUser(user), ...session };
}

async function revokeFamily(deps: Deps, familyId: string, now: Date): Promise<never> {
  await deps.db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  throw refused();
}
