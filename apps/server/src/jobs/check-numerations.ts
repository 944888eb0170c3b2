/**
 * `numeration.low` (fewer than 10 % or fewer than 50 folios left in a range) and `numeration.expiring` (the range
 * stops serving within 15 days) — each once per range (and, for expiry, per `vence_el`). Expired ranges are
 * skipped; an exhausted range does not warn about expiry. Runs hourly, and at once after an emission leaves a range
 * low (`createDocuments` wakes it), so the warning does not wait for the hour.
 */
import { and, isNull, eq } from "drizzle-orm";
import { businesses } from "../db/businesses.js";
import { numerations } from "../db/numerations.js";
import { isLow } from "../modules/numerations/low-folios.js";
import type { Tx } from "../db/tx.js";
import { chileToday } from "../time.js";
import { daysBetween } from "./days.js";
import { recordEventOnce } from "./record-event-once.js";

export const NUMERATION_EXPIRY_WARNING_DAYS = 15;
export { isLow, LOW_FOLIOS_COUNT, LOW_FOLIOS_FRACTION } from "../modules/numerations/low-folios.js";

/** Returns how many events were recorded. */
export async function checkNumerations(tx: Tx, now: Date): Promise<number> {
  const today = chileToday(now);
  const rows = await tx
    .select({ numeration: numerations })
    .from(numerations)
    .innerJoin(businesses, and(eq(businesses.id, numerations.businessId), isNull(businesses.deletedAt)));
  let recorded = 0;
  for (const { numeration: n } of rows) {
    if (n.venceEl !== null && today >= n.venceEl) continue;
    const disponibles = Math.max(0, n.hasta - n.siguiente + 1);
    const base = { numeration_id: n.id, tipo: n.tipo, desde: n.desde, hasta: n.hasta, siguiente_folio: n.siguiente, disponibles, vence_el: n.venceEl };
    const target = { businessId: n.businessId, environment: n.environment, at: now };
    if (isLow(n)) {
      const id = await recordEventOnce(tx, { ...target, event: "numeration.low", data: base }, { numeration_id: n.id, threshold: "low" });
      if (id) recorded++;
    }
    if (n.venceEl !== null && disponibles > 0) {
      const days = daysBetween(today, n.venceEl);
      if (days <= NUMERATION_EXPIRY_WARNING_DAYS) {
        const data = { ...base, dias_restantes: days };
        const id = await recordEventOnce(tx, { ...target, event: "numeration.expiring", data }, { numeration_id: n.id, vence_el: n.venceEl });
        if (id) recorded++;
      }
    }
  }
  return recorded;
}
