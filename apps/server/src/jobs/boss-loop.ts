/**
 * One background worker as a pg-boss queue of rounds. The work items are the rows a round claims (`FOR UPDATE
 * SKIP LOCKED`: documents by `next_check_at`, webhook deliveries by `due_at`), written in the same transaction as
 * the change that made them due; a round's job carries no data and only says *when* to look. That keeps one
 * source of truth for each piece of work while pg-boss does what a queue is for: it spreads rounds over every
 * process, wakes a free worker anywhere in the cluster at once (NOTIFY), keeps the schedule across restarts and
 * retries a round whose process died (the job expires and runs again).
 *
 * A round runs `tick()` again while it reports a full batch. Rounds are jobs on a `short` queue (at most one
 * queued job per singleton key, so repeated requests collapse into one):
 * - key `next`: the following round, `intervalMs` later. It is sent when a round *starts*, so the chain does not
 *   depend on any round finishing (a process killed mid-round loses nothing; its active job is retried later).
 * - key `now`: wake-ups (a state change made work due, or a round stopped with work left), taken at once by
 *   whichever process is free. Every process sends one when it starts, which also re-seeds the chain.
 */
import { errorMessage, type Logger } from "../log.js";
import type { JobQueue } from "./job-queue.js";

export interface BossLoopOptions {
  boss: JobQueue;
  /** The pg-boss queue (one per worker kind, shared by every process). */
  queue: string;
  intervalMs: number;
  /** One batch of work; returns true when there may be more due work right now. */
  tick: () => Promise<boolean>;
  log: Logger;
}

export interface Loop {
  /**
   * Asks for a round as soon as a worker (in any process) is free. Resolves once the request is queued (callers
   * need not wait for it); while one request is queued, more collapse into it.
   */
  wake(): Promise<void>;
  /** Stops taking rounds and waits for the running one. Queued rounds stay for the other processes. */
  stop(): Promise<void>;
}

/** Batches one round may run before it hands the rest to a new round (other processes can take it). */
const MAX_BATCHES_PER_ROUND = 20;
/** Completed rounds are kept this long for inspection (`pgboss.job`), then deleted by pg-boss. */
const KEEP_COMPLETED_S = 3_600;
/** A round still active after this long is taken to be lost with its process and is run again. */
const ROUND_EXPIRY_S = 600;

export async function startBossLoop(o: BossLoopOptions): Promise<Loop> {
  const { boss, queue, log } = o;
  let stopped = false;
  await boss.createQueue(queue, {
    policy: "short",
    notify: true,
    expireInSeconds: ROUND_EXPIRY_S,
    deleteAfterSeconds: KEEP_COMPLETED_S,
    retryLimit: 3,
  });

  const send = (key: "now" | "next", startAfter?: Date) =>
    boss.send(queue, null, { singletonKey: key, ...(startAfter ? { startAfter } : {}) }).catch((error: unknown) => {
      log.error("worker.schedule_failed", { worker: queue, error: errorMessage(error) });
      return null;
    });

  const round = async () => {
    await send("next", new Date(Date.now() + o.intervalMs));
    for (let batch = 0; batch < MAX_BATCHES_PER_ROUND; batch++) {
      if (stopped) return;
      let more = false;
      try {
        more = await o.tick();
      } catch (error) {
        // Logged, not thrown: the rows it claimed are released by their leases, and the chain goes on.
        log.error("worker.tick_failed", { worker: queue, error: errorMessage(error) });
      }
      if (!more) return;
    }
    await send("now");
  };

  // Deferred rounds (`next`) become due without a NOTIFY, so the poll stays at the base rate with NOTIFY on too.
  const poll = Math.max(0.5, Math.min(o.intervalMs / 1000, 2));
  await boss.work(queue, { pollingIntervalSeconds: poll, notifyPollingIntervalSeconds: poll, batchSize: 1 }, round);
  await send("now");

  return {
    async wake() {
      if (!stopped) await send("now");
    },
    async stop() {
      stopped = true;
      await boss.offWork(queue, { wait: true });
    },
  };
}
