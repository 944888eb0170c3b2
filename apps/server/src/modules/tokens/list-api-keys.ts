import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { apiKeys } from "../../db/api-keys.js";
import type { Credential } from "../../http/credential.js";
import { presentKey, type KeyView } from "./present-key.js";

/** The caller's user's keys (an API key caller: only its business's, in its environment), newest first. */
export async function listApiKeys(deps: Deps, caller: Credential, page: { page: number; limit: number }): Promise<{ items: KeyView[]; total: number }> {
  const filters: SQL[] = [eq(apiKeys.userId, caller.userId)];
  if (caller.type === "api_key") filters.push(eq(apiKeys.businessId, caller.businessId), eq(apiKeys.environment, caller.environment));
  const where = and(...filters);
  const [total] = await deps.db.select({ n: count() }).from(apiKeys).where(where);
  const rows = await deps.db
    .select()
    .from(apiKeys)
    .where(where)
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return { items: rows.map(presentKey), total: total?.n ?? 0 };
}
