import { and, eq, isNull } from "drizzle-orm";
import { businesses } from "../../db/businesses.js";
import { numerations, type NumerationRow } from "../../db/numerations.js";
import type { Deps } from "../../deps.js";
import type { Credential } from "../../http/credential.js";
import { notFound } from "../../http/errors.js";
import { chileToday } from "../../time.js";
import { presentNumeration, type NumerationView } from "./present-numeration.js";

/** `GET /numerations/{id}`: visible when its business is the caller's (a key: its own) and in its environment. */
export async function getNumeration(deps: Deps, caller: Credential, id: string): Promise<NumerationView> {
  return presentNumeration(await findNumeration(deps, caller, id), chileToday(deps.now()));
}

export async function findNumeration(deps: Deps, caller: Credential, id: string): Promise<NumerationRow> {
  const conditions = [
    eq(numerations.id, id),
    eq(numerations.environment, caller.environment),
    eq(businesses.userId, caller.userId),
    isNull(businesses.deletedAt),
  ];
  if (caller.type === "api_key") conditions.push(eq(numerations.businessId, caller.businessId));
  const [found] = await deps.db
    .select({ numeration: numerations })
    .from(numerations)
    .innerJoin(businesses, eq(businesses.id, numerations.businessId))
    .where(and(...conditions));
  if (!found) throw notFound("numeration");
  return found.numeration;
}
