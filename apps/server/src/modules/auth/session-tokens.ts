/** Access tokens (JWT HS256, 15 min) and opaque refresh tokens (30 days, stored hashed). */
import { createHash, randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
const ISSUER = "timbre";

/** `familyId`: the login (refresh-token family) the token belongs to; revoking the family kills its access tokens. */
export async function signAccessToken(secret: Uint8Array, userId: string, familyId: string, now = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ typ: "access", fam: familyId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
    .sign(secret);
}

/** The user and login family of a valid, unexpired access token, else `null` (the family is checked by the caller). */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<{ userId: string; familyId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ["HS256"] });
    if (payload.typ !== "access" || typeof payload.sub !== "string" || typeof payload.fam !== "string") return null;
    return { userId: payload.sub, familyId: payload.fam };
  } catch {
    return null;
  }
}

export function generateRefreshToken(): string {
  return "rt_" + randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
