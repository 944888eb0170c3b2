/**
 * Finds who is calling: an API key (`X-API-Key`, or `Authorization: Bearer sk_…`) looked up by its SHA-256 on
 * every request (no cache, so a revoked key stops working at once on every instance; the lookups of requests that
 * arrive together share one statement), or a session JWT.
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { apiKeys, type ApiKeyRow } from "../db/api-keys.js";
import { businesses, type BusinessRow } from "../db/businesses.js";
import { coalescedPer } from "../db/coalesce.js";
import { asyncCommitCondition } from "../db/async-commit.js";
import type { Deps } from "../deps.js";
import { isSessionFamilyLive } from "../modules/auth/session-family.js";
import { verifyAccessToken } from "../modules/auth/session-tokens.js";
import { hashApiKey, looksLikeApiKey } from "../modules/tokens/api-key-format.js";
import { ApiError } from "./errors.js";
import { expandPermissions, PERMISSIONS, type Credential } from "./credential.js";

const LAST_USED_RESOLUTION = sql`interval '1 minute'`;
const LAST_USED_RESOLUTION_MS = 60_000;

export async function resolveCredential(deps: Deps, headers: Headers): Promise<Credential | "invalid" | undefined> {
  const apiKeyHeader = headers.get("x-api-key");
  const authorization = headers.get("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (apiKeyHeader !== null) return resolveApiKey(deps, apiKeyHeader.trim());
  if (authorization !== null && bearer === undefined) return "invalid";
  if (bearer === undefined) return undefined;
  if (bearer.startsWith("sk_")) return resolveApiKey(deps, bearer);
  const session = await verifyAccessToken(deps.secrets.jwtSecret, bearer);
  if (session === null || !(await isSessionFamilyLive(deps, session.userId, session.familyId))) return "invalid";
  const userId = session.userId;
  const environment = headers.get("x-environment")?.trim() || "test";
  if (environment !== "test" && environment !== "live") {
    throw new ApiError("INVALID_PARAMETER", "X-Environment must be test or live", { field: "X-Environment", reason: "enum" });
  }
  return {
    type: "session",
    userId,
    businessId: headers.get("x-business-id")?.trim() || null,
    environment,
    permissions: [...PERMISSIONS],
  };
}

/**
 * The live key rows of a round of requests, each with its business's row, in one statement (`db/coalesce.ts`):
 * the emission needs that row (`loadScopeBusiness`), and reading it here spares it a statement of its own. The
 * query is built once per app (drizzle's `prepare`; the hashes are one array parameter, so its text is the same
 * for any number of keys): building it on every round cost ≈ 170 µs of the server's thread.
 */
const findLiveKey = coalescedPer((deps: Deps) => {
  const query = deps.db
    .select({ key: apiKeys, business: businesses })
    .from(apiKeys)
    .leftJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(and(sql`${apiKeys.keyHash} = any(${sql.placeholder("hashes")}::text[])`, isNull(apiKeys.revokedAt)))
    .prepare("live_api_keys");
  return async (hashes: string[]): Promise<Array<{ key: ApiKeyRow; business: BusinessRow | null } | undefined>> => {
    const rows = await query.execute({ hashes: [...new Set(hashes)] });
    const byHash = new Map(rows.map((r) => [r.key.keyHash, r]));
    return hashes.map((h) => byHash.get(h));
  };
});

async function resolveApiKey(deps: Deps, key: string): Promise<Credential | "invalid"> {
  if (!looksLikeApiKey(key)) return "invalid";
  const found = await findLiveKey(deps, hashApiKey(key));
  if (!found) return "invalid";
  const row = found.key;
  // At most one write per key per minute: last_used_at is informative, not exact. The row just read tells
  // whether it is due, so a busy key costs no write at all; the WHERE settles races between instances. Its commit
  // does not wait for the disk (`db/async-commit.ts`): informative only.
  const now = deps.now();
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await deps.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - ${LAST_USED_RESOLUTION}`)), asyncCommitCondition));
  }
  return {
    type: "api_key",
    userId: row.userId,
    keyId: row.id,
    keyName: row.name,
    businessId: row.businessId,
    environment: row.environment,
    permissions: expandPermissions(row.permissions),
    ...(found.business ? { business: found.business } : {}),
  };
}
