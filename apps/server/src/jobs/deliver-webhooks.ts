/**
 * Webhook delivery worker: a round (a pg-boss job, `boss-loop.ts`) claims due attempts (`claim-deliveries.ts`),
 * POSTs each with the Standard Webhooks headers signed by every active secret, and records the outcome
 * (`record-delivery.ts`). Up to `concurrency` attempts run at once and never inside a transaction, so a
 * slow receiver holds no lock and never delays emission. The target is re-checked at delivery time (resolved
 * addresses, https in live).
 *
 * A finished attempt refills its slot at once from this process (one claim statement), not through a new pg-boss
 * round: a round costs a job's send, fetch and completion, which capped a backlog at ≈ 17 deliveries/s. Rounds
 * still start the work (every interval, and on a wake-up after a state change) in whichever process is free.
 * Each business gets at most `perBusiness` of the slots, so one slow or flooded receiver cannot hold back the
 * others' webhooks.
 */
import type { Deps } from "../deps.js";
import { activeWebhookSecrets } from "../modules/businesses/active-webhook-secrets.js";
import { resolveWebhookTarget, type HostLookup } from "../modules/businesses/check-webhook-url.js";
import { DELIVERY_TIMEOUT_MS, nextRetryDelay } from "../webhooks/schedule.js";
import { webhookHeaders } from "../webhooks/sign.js";
import { claimDeliveries, type ClaimedDelivery } from "./claim-deliveries.js";
import { postWebhook, type PostResult } from "./post-webhook.js";
import { recordDeliveryResult, releaseDelivery, type AttemptResult } from "./record-delivery.js";
import { webhookPayload } from "./webhook-payload.js";
import { errorMessage } from "../log.js";

export interface WebhookWorkerOptions {
  /** Receiver deadline (default the spec's 10 s). */
  timeoutMs?: number;
  /** Wait before attempt + 1 in ms, null when none is left (default the spec's schedule). */
  retryDelayMs?: (attempt: number) => number | null;
  /** Attempts in flight at once per worker (default 32). */
  concurrency?: number;
  /** Attempts in flight at once for one business (default a quarter of `concurrency`). */
  perBusiness?: number;
  /** Name resolution for the SSRF check (tests). */
  lookup?: HostLookup;
}

export interface WebhookWorker {
  /** Claims and starts due attempts; true when it filled every free slot (there may be more). */
  tick(): Promise<boolean>;
  /** Aborts attempts in flight (they are released, due again at once) and waits for them. */
  stop(): Promise<void>;
  /** Resolves when nothing is in flight. */
  idle(): Promise<void>;
}

const defaultRetryDelayMs = (attempt: number) => {
  const s = nextRetryDelay(attempt);
  return s === null ? null : s * 1000;
};

export function createWebhookWorker(deps: Deps, options: WebhookWorkerOptions = {}): WebhookWorker {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  const concurrency = options.concurrency ?? 32;
  const perBusiness = options.perBusiness ?? Math.max(1, Math.floor(concurrency / 4));
  const leaseMs = timeoutMs + 50_000;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  /** Attempts in flight by business id (the claim's share). */
  const byBusiness = new Map<string, number>();
  let claiming: Promise<boolean> | null = null;
  let claimAgain = false;

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    const posted = await send(claimed);
    if (posted.aborted) return releaseDelivery(deps.db, claimed, deps.now());
    const outcome = await recordDeliveryResult(deps.db, claimed, posted, deps.now(), retryDelayMs);
    const fields = { event_id: claimed.event.id, attempt: claimed.attempt, outcome, status_code: posted.statusCode };
    if (outcome === "delivered") deps.log.info("webhook.delivered", fields);
    else deps.log.warn("webhook.attempt_failed", { ...fields, error: posted.error });
  }

  async function send(claimed: ClaimedDelivery): Promise<AttemptResult & Pick<PostResult, "aborted">> {
    const { business, event } = claimed;
    const url = business && business.deletedAt === null ? business.webhookUrl : null;
    if (!business || !url) return { ok: false, statusCode: null, error: "no webhook URL configured", retry: false, aborted: false };
    const now = deps.now();
    const secrets = activeWebhookSecrets(deps.secrets.masterKey, business, now);
    if (secrets.length === 0) return { ok: false, statusCode: null, error: "no webhook secret", retry: false, aborted: false };
    const refusal = await resolveWebhookTarget(url, {
      requireHttps: event.environment === "live" || deps.config.siiMode === "produccion",
      allowPrivate: deps.config.webhookAllowPrivate,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    if (refusal) return { ok: false, statusCode: null, error: refusal.message, aborted: false };
    const body = webhookPayload(event);
    const headers = {
      ...webhookHeaders(secrets, event.id, Math.floor(now.getTime() / 1000), body),
      "content-type": "application/json",
      "user-agent": `Timbre-Webhooks/${deps.config.version}`,
    };
    return postWebhook({ url, body, headers, timeoutMs, stop: stopping.signal });
  }

  function launch(claimed: ClaimedDelivery): void {
    const business = claimed.event.businessId;
    byBusiness.set(business, (byBusiness.get(business) ?? 0) + 1);
    const run = attempt(claimed)
      .catch((error: unknown) => {
        // The claim's lease runs out and the attempt is made again: at-least-once.
        deps.log.error("webhook.attempt_error", { event_id: claimed.event.id, error: errorMessage(error) });
      })
      .finally(() => {
        inFlight.delete(run);
        const left = (byBusiness.get(business) ?? 1) - 1;
        if (left > 0) byBusiness.set(business, left);
        else byBusiness.delete(business);
        refill();
      });
    inFlight.add(run);
  }

  /**
   * Claims into the free slots, one claim at a time (a call during a claim asks for another after it). Claims
   * again while a claim found rows and slots are left: a business that reached its share in one claim is skipped
   * in the next. True when every slot is taken (there may be more due).
   */
  function fill(): Promise<boolean> {
    if (claiming) {
      claimAgain = true;
      return claiming;
    }
    claiming = (async () => {
      for (;;) {
        claimAgain = false;
        if (stopping.signal.aborted) return false;
        const free = concurrency - inFlight.size;
        if (free <= 0) return true;
        const claimed = await claimDeliveries(deps.db, deps.now(), free, leaseMs, { perBusiness, inFlight: byBusiness });
        for (const c of claimed) launch(c);
        if (claimed.length === free) return true;
        if (claimed.length === 0 && !claimAgain) return false;
      }
    })().finally(() => {
      claiming = null;
    });
    return claiming;
  }

  async function idle(): Promise<void> {
    while (claiming || inFlight.size > 0) {
      await claiming?.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
    }
  }

  function refill(): void {
    if (stopping.signal.aborted) return;
    fill().catch((error: unknown) => deps.log.error("webhook.claim_failed", { error: errorMessage(error) }));
  }

  return {
    async tick() {
      // Slots taken by attempts already running are no reason for another round: their ends refill them.
      if (stopping.signal.aborted || inFlight.size >= concurrency) return false;
      return fill();
    },
    async stop() {
      stopping.abort();
      await idle();
    },
    idle,
  };
}
