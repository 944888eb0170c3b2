import { and, count, desc, eq, isNull, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { businesses } from "../../db/businesses.js";
import type { Credential } from "../../http/credential.js";
import { presentBusiness, type BusinessView } from "./present-business.js";

/** The user's live businesses, newest first; an API key sees only its own. */
export async function listBusinesses(deps: Deps, caller: Credential, page: { page: number; limit: number }): Promise<{ items: BusinessView[]; total: number }> {
  const filters: SQL[] = [eq(businesses.userId, caller.userId), isNull(businesses.deletedAt)];
  if (caller.type === "api_key") filters.push(eq(businesses.id, caller.businessId));
  const where = and(...filters);
  const [total] = await deps.db.select({ n: count() }).from(businesses).where(where);
  const rows = await deps.db
    .select()
    .from(businesses)
    .where(where)
    .orderBy(desc(businesses.createdAt), desc(businesses.id))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return { items: rows.map((row) => presentBusiness(row, deps.config.mail.inboundDomain)), total: total?.n ?? 0 };
}
