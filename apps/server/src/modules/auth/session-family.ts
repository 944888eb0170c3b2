/**
 * Whether a login (refresh-token family) is still alive: it holds an unrevoked refresh token. Reuse of a rotated
 * refresh token revokes every token of the family, and with this check its access tokens die at once instead of
 * living out their 15 minutes. A rotation inserts the new token before it retires the old one, so a live family is
 * never seen without one.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { refreshTokens } from "../../db/refresh-tokens.js";
import type { Deps } from "../../deps.js";

export async function isSessionFamilyLive(deps: Deps, userId: string, familyId: string): Promise<boolean> {
  const rows = await deps.db
    .select({ one: sql<number>`1` })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
    .limit(1);
  return rows.length > 0;
}
