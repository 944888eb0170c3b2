/** Writes the outcome of one claimed attempt and queues the next one per the retry schedule. */
import { and, eq } from "drizzle-orm";
import { webhookDeliveries } from "../db/events.js";
import type { Db } from "../db/open-database.js";
import { newId } from "../ids.js";
import type { ClaimedDelivery } from "./claim-deliveries.js";

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** false: do not retry whatever the schedule says (e.g. the business has no webhook URL any more). */
  retry?: boolean;
}

export type AttemptOutcome = "delivered" | "retrying" | "failed" | "lost";

const stillClaimed = (claimed: ClaimedDelivery) =>
  and(eq(webhookDeliveries.id, claimed.id), eq(webhookDeliveries.state, "pending"), eq(webhookDeliveries.at, claimed.claimedAt));

/**
 * `retryDelayMs(attempt)` gives the wait before attempt + 1, or null when none is left. "lost" means the claim
 * expired and another worker owns the row now (nothing written).
 */
export async function recordDeliveryResult(
  db: Db,
  claimed: ClaimedDelivery,
  result: AttemptResult,
  now: Date,
  retryDelayMs: (attempt: number) => number | null,
): Promise<AttemptOutcome> {
  const delay = result.ok || result.retry === false ? null : retryDelayMs(claimed.attempt);
  const state: AttemptOutcome = result.ok ? "delivered" : delay === null ? "failed" : "retrying";
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(webhookDeliveries)
      .set({ state: state as "delivered" | "retrying" | "failed", statusCode: result.statusCode, error: result.error?.slice(0, 500) ?? null })
      .where(stillClaimed(claimed))
      .returning({ id: webhookDeliveries.id });
    if (updated.length === 0) return "lost";
    if (state === "retrying" && delay !== null) {
      await tx.insert(webhookDeliveries).values({
        id: newId("delivery"),
        eventId: claimed.event.id,
        attempt: claimed.attempt + 1,
        state: "pending",
        dueAt: new Date(now.getTime() + delay),
      });
    }
    return state;
  });
}

/** Gives a claimed attempt back untried (shutdown): due again at once for any worker. */
export async function releaseDelivery(db: Db, claimed: ClaimedDelivery, now: Date): Promise<void> {
  await db.update(webhookDeliveries).set({ at: null, dueAt: now }).where(stillClaimed(claimed));
}
