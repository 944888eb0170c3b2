import { and, eq, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { apiKeys } from "../../db/api-keys.js";
import type { Credential } from "../../http/credential.js";
import { notFound } from "../../http/errors.js";

/** Revokes a key of the caller (an API key caller: of its business and environment). Revoking twice keeps the first date. */
export async function revokeApiKey(deps: Deps, caller: Credential, keyId: string): Promise<{ id: string; revoked: true; revoked_at: string }> {
  const filters: SQL[] = [eq(apiKeys.id, keyId), eq(apiKeys.userId, caller.userId)];
  if (caller.type === "api_key") filters.push(eq(apiKeys.businessId, caller.businessId), eq(apiKeys.environment, caller.environment));
  const [row] = await deps.db.select().from(apiKeys).where(and(...filters));
  if (!row) throw notFound("API key");
  let revokedAt = row.revokedAt;
  if (!revokedAt) {
    revokedAt = deps.now();
    await deps.db.update(apiKeys).set({ revokedAt }).where(eq(apiKeys.id, row.id));
  }
  return { id: row.id, revoked: true, revoked_at: revokedAt.toISOString() };
}
