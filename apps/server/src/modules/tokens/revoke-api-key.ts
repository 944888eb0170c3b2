import { and, eq, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { apiKeys } from "../../db/api-keys.js";
import { expandPermissions, type Credential } from "../../http/credential.js";
import { ApiError, notFound } from "../../http/errors.js";

/**
 * Revokes a key of the caller (an API key caller: of its business and environment). Revoking twice keeps the first
 * date. Like creation, no escalation: a key may only revoke keys whose permissions are a subset of its own (403).
 */
export async function revokeApiKey(deps: Deps, caller: Credential, keyId: string): Promise<{ id: string; revoked: true; revoked_at: string }> {
  const filters: SQL[] = [eq(apiKeys.id, keyId), eq(apiKeys.userId, caller.userId)];
  if (caller.type === "api_key") filters.push(eq(apiKeys.businessId, caller.businessId), eq(apiKeys.environment, caller.environment));
  const [row] = await deps.db.select().from(apiKeys).where(and(...filters));
  if (!row) throw notFound("API key");
  if (caller.type === "api_key") {
    const missing = expandPermissions(row.permissions).find((p) => !caller.permissions.includes(p));
    if (missing) throw new ApiError("FORBIDDEN", `this key cannot revoke a key holding ${missing}`, { required_permission: missing, reason: "escalation" });
  }
  let revokedAt = row.revokedAt;
  if (!revokedAt) {
    revokedAt = deps.now();
    await deps.db.update(apiKeys).set({ revokedAt }).where(eq(apiKeys.id, row.id));
  }
  return { id: row.id, revoked: true, revoked_at: revokedAt.toISOString() };
}
