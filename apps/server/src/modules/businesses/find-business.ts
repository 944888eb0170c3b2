import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { businesses, type BusinessRow } from "../../db/businesses.js";
import type { Credential } from "../../http/credential.js";
import { notFound } from "../../http/errors.js";

/** A live business visible to the caller (its owner's session, or a key of that very business), else 404. */
export async function findBusiness(deps: Deps, caller: Credential, id: string): Promise<BusinessRow> {
  if (caller.type === "api_key" && caller.businessId !== id) throw notFound("business");
  const [row] = await deps.db
    .select()
    .from(businesses)
    .where(and(eq(businesses.id, id), eq(businesses.userId, caller.userId), isNull(businesses.deletedAt)));
  if (!row) throw notFound("business");
  return row;
}
