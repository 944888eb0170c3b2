import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { apiKeys } from "../../db/api-keys.js";
import { businesses } from "../../db/businesses.js";
import type { Credential } from "../../http/credential.js";
import { findBusiness } from "./find-business.js";

/** Soft delete: the row (and later its documents) stays; its keys are revoked in the same transaction. */
export async function deleteBusiness(deps: Deps, caller: Credential, id: string): Promise<{ id: string; deleted: true }> {
  const business = await findBusiness(deps, caller, id);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(businesses).set({ deletedAt: now, updatedAt: now }).where(eq(businesses.id, business.id));
    await tx.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.businessId, business.id), isNull(apiKeys.revokedAt)));
  });
  return { id: business.id, deleted: true };
}
