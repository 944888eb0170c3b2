import type { Deps } from "../../deps.js";
import { refreshTokens } from "../../db/refresh-tokens.js";
import { randomUUID } from "node:crypto";
import { ACCESS_TOKEN_TTL_S, generateRefreshToken, hashToken, REFRESH_TOKEN_TTL_MS, signAccessToken } from "./session-tokens.js";

export interface SessionTokens {
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  expires_in: number;
}

/** A new access token and a refresh token of `familyId` (a new family per login). */
export async function issueSession(deps: Deps, userId: string, familyId: string = randomUUID()): Promise<SessionTokens> {
  const now = deps.now();
  const refresh = generateRefreshToken();
  await deps.db.insert(refreshTokens).values({
    id: randomUUID(),
    userId,
    familyId,
    tokenHash: hashToken(refresh),
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    createdAt: now,
  });
  return {
    access_token: await signAccessToken(deps.secrets.jwtSecret, userId, familyId, now),
    refresh_token: refresh,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_S,
  };
}
