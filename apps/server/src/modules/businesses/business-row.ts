/**
 * The business row by id, as it is now (deleted or not): read on every emission (validation, signing) and by
 * every upload and status query (the SII session). The reads that arrive together share one statement
 * (`db/coalesce.ts`); nothing is cached, so a new certificate or a deletion counts from the next read on.
 */
import { inArray } from "drizzle-orm";
import { businesses, type BusinessRow } from "../../db/businesses.js";
import { coalescedPer } from "../../db/coalesce.js";
import type { Deps } from "../../deps.js";

export const readBusinessRow: (deps: Deps, id: string) => Promise<BusinessRow | undefined> = coalescedPer(
  (deps: Deps) =>
    async (ids: string[]): Promise<Array<BusinessRow | undefined>> => {
      const rows = await deps.db
        .select()
        .from(businesses)
        .where(inArray(businesses.id, [...new Set(ids)]));
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id));
    },
);
