/**
 * Starts the background workers of this process on the job queue (pg-boss, `job-queue.ts`), each a queue of
 * rounds (`boss-loop.ts`): webhook delivery, the PENDIENTE dispatcher, the ENVIADO status poller, the acceptance
 * worker (the receiver's acceptance or claim of accepted facturas, `poll-acceptance.ts`), the registry follow-up
 * of received documents (`poll-registry.ts`), the periodic checks (certificate and numeration expiry, low folios),
 * and the IMAP door's mailbox poller (`intercambio/mailbox-worker.ts`). All state lives in the database (delivery
 * rows, `next_check_at`, pg-boss's jobs), so any number of processes may run workers and a restart loses
 * nothing. `wake(name)` (or `wakeWorkers(deps, name)` from code that only has the deps) asks for a round at
 * once, e.g. after a state change commits; any process's worker may take it.
 */
import type { Deps } from "../deps.js";
import { createWebhookWorker, type WebhookWorkerOptions } from "./deliver-webhooks.js";
import { createDispatcher, type DispatchOptions } from "./dispatch-pending.js";
import { defaultDocumentEngine } from "./default-document-engine.js";
import type { DocumentEngine } from "./document-engine.js";
import type { JobStore } from "../db/open-database.js";
import { startBossLoop, type Loop } from "./boss-loop.js";
import { openJobQueue } from "./job-queue.js";
import { createAcceptanceWorker, type AcceptanceWorkerOptions } from "./poll-acceptance.js";
import { createRegistryWorker, type RegistryWorkerOptions } from "./poll-registry.js";
import { createPacer } from "../concurrency.js";
import { createStatusPoller, type PollOptions } from "./poll-status.js";
import { runChecks } from "./run-checks.js";
import { createMailWorker } from "../intercambio/send-outbox.js";
import { createMailboxWorker, type MailboxWorkerOptions } from "../intercambio/mailbox-worker.js";

export type WorkerName = "webhooks" | "dispatch" | "poll" | "acceptance" | "registry" | "checks" | "mail" | "imap";

export interface WorkersOptions {
  /** The emission functions (default: the real ones; null disables the dispatcher and the poller). */
  engine?: DocumentEngine | null;
  intervalsMs?: Partial<Record<WorkerName, number>>;
  webhooks?: WebhookWorkerOptions;
  dispatch?: DispatchOptions;
  poll?: PollOptions;
  acceptance?: AcceptanceWorkerOptions;
  registry?: RegistryWorkerOptions;
  imap?: MailboxWorkerOptions;
  /** Run only these workers (default all). */
  only?: WorkerName[];
}

export interface Workers {
  wake(name: WorkerName): void;
  stop(): Promise<void>;
}

const DEFAULT_INTERVALS: Record<WorkerName, number> = { webhooks: 1_000, dispatch: 2_000, poll: 1_000, acceptance: 60_000, registry: 60_000, checks: 3_600_000, mail: 2_000, imap: 10_000 };

const running = new Map<string, Set<Workers>>();

/** Wakes `name` in every worker set started over these deps (no-op when none runs in this process). */
export function wakeWorkers(deps: Pick<Deps, "instanceId">, name: WorkerName): void {
  for (const workers of running.get(deps.instanceId) ?? []) workers.wake(name);
}

/** The pg-boss queue of each worker's rounds. */
const WORKER_QUEUES: Record<WorkerName, string> = {
  webhooks: "timbre-webhooks",
  dispatch: "timbre-dispatch",
  poll: "timbre-poll",
  acceptance: "timbre-acceptance",
  registry: "timbre-registry",
  checks: "timbre-checks",
  mail: "timbre-mail",
  imap: "timbre-imap",
};

export async function startWorkers(deps: Deps, store: JobStore, options: WorkersOptions = {}): Promise<Workers> {
  const engine = options.engine === undefined ? defaultDocumentEngine : options.engine;
  const enabled = (name: WorkerName) => !options.only || options.only.includes(name);
  const interval = (name: WorkerName) => options.intervalsMs?.[name] ?? DEFAULT_INTERVALS[name];
  const loops = new Map<WorkerName, Loop>();
  const log = deps.log;
  const boss = await openJobQueue(store, log, { listen: deps.config.databasePrepare });
  const start = async (name: WorkerName, tick: () => Promise<boolean>) => {
    loops.set(name, await startBossLoop({ boss, queue: WORKER_QUEUES[name], intervalMs: interval(name), tick, log }));
  };

  const webhookWorker = enabled("webhooks") ? createWebhookWorker(deps, options.webhooks) : null;
  if (webhookWorker) await start("webhooks", webhookWorker.tick);
  // Intercambio mail (acuses, answers, deliveries): `intercambio/send-outbox.ts`.
  if (enabled("mail")) await start("mail", createMailWorker(deps).tick);
  // A business's own mailbox, each polled every minute (`imap_next_check_at`); a round only starts polls.
  const mailboxWorker = enabled("imap") ? createMailboxWorker(deps, options.imap) : null;
  if (mailboxWorker) await start("imap", mailboxWorker.tick);
  if (engine && enabled("dispatch")) await start("dispatch", createDispatcher(deps, engine, options.dispatch).tick);
  if (engine && enabled("poll")) await start("poll", createStatusPoller(deps, engine, options.poll).tick);
  // Both ask the SII's registry of acceptances and claims: one bucket of ACCEPTANCE_CHECKS_PER_SECOND for the two.
  const registryPacer = createPacer({ perSecond: deps.config.acceptanceChecksPerSecond, burst: 8 });
  if (enabled("acceptance")) {
    const worker = createAcceptanceWorker(deps, { ...(options.acceptance?.perSecond === undefined ? { pacer: registryPacer } : {}), ...options.acceptance });
    await start("acceptance", async () => {
      const round = await worker.tick();
      if (round.changed) void loops.get("webhooks")?.wake();
      return round.more;
    });
  }
  // The received documents' follow-up at the registry (`poll-registry.ts`).
  if (enabled("registry")) {
    const worker = createRegistryWorker(deps, { pacer: registryPacer, ...options.registry });
    await start("registry", async () => {
      const round = await worker.tick();
      if (round.changed) void loops.get("webhooks")?.wake();
      return round.more;
    });
  }
  if (!engine) log.warn("workers.no_document_engine", { detail: "dispatcher and status poller are off" });
  if (enabled("checks")) {
    const tick = async () => {
      const recorded = await runChecks(deps);
      if (recorded) void loops.get("webhooks")?.wake();
      return false;
    };
    await start("checks", tick);
  }

  const workers: Workers = {
    wake: (name) => void loops.get(name)?.wake(),
    async stop() {
      running.get(deps.instanceId)?.delete(workers);
      // Stop claiming first, then abort what is in flight (released rows are due again at once).
      await Promise.all([...loops.values()].map((l) => l.stop()));
      await webhookWorker?.stop();
      await mailboxWorker?.stop();
      await boss.stop({ graceful: true, close: true, timeout: 10_000 });
    },
  };
  const set = running.get(deps.instanceId) ?? new Set<Workers>();
  set.add(workers);
  running.set(deps.instanceId, set);
  log.info("workers.started", { workers: [...loops.keys()].join(",") });
  return workers;
}
