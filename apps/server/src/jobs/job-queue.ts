/**
 * The job queue: pg-boss over the same database as everything else, so any number of server processes share
 * the background work without a separate broker. On PGlite it shares the embedded client (`fromPglite`; one
 * process by construction); on PostgreSQL it opens its own small pool (one connection of which listens for
 * NOTIFY, so a job sent by any process wakes a worker at once instead of at its next poll).
 *
 * pg-boss keeps its tables in the `pgboss` schema and migrates them itself at `start()`; ours stay with
 * drizzle's migrations.
 */
import { PgBoss, fromPglite } from "pg-boss";
import type { JobStore } from "../db/open-database.js";
import { errorMessage, type Logger } from "../log.js";

export type JobQueue = PgBoss;

export interface JobQueueOptions {
  /**
   * LISTEN for new jobs (default true). Off behind a pooler in transaction mode (PgBouncer), where a LISTEN does
   * not stay on one server connection: the server turns it off with `DATABASE_PREPARE=false`, the setting that
   * declares such a pooler. Workers then find wake-ups at their next poll (0.5–2 s).
   */
  listen?: boolean;
}

export async function openJobQueue(store: JobStore, log: Logger, options: JobQueueOptions = {}): Promise<JobQueue> {
  const useListenNotify = options.listen ?? true;
  const boss =
    store.kind === "pglite"
      ? new PgBoss({ db: fromPglite(store.client), backend: "pglite", useListenNotify })
      : new PgBoss({ connectionString: store.url, max: 3, application_name: "timbre-jobs", useListenNotify });
  // pg-boss reports its own failures (a maintenance query, a lost connection) as events; it retries by itself.
  boss.on("error", (error: unknown) => log.error("jobs.error", { error: errorMessage(error) }));
  boss.on("warning", (warning: unknown) => log.warn("jobs.warning", { detail: (warning as { message?: string }).message ?? String(warning) }));
  await boss.start();
  return boss;
}
