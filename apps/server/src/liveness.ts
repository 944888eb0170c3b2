/**
 * Whether another server process is still running, so that work it left half done (an idempotent request whose
 * process died) is taken over at once instead of after a timeout.
 *
 * - Embedded (PGlite): one process per data directory by construction (`db/lock-file.ts`), so any process but this
 *   one is gone.
 * - PostgreSQL: each process holds a session advisory lock on a connection of its own for as long as it runs. The
 *   database drops a dead process's sessions (its sockets close with it), which frees the lock; so "the lock is
 *   free" means "the process is gone", and a process that is gone commits nothing more.
 * - Behind a transaction pooler (`DATABASE_PREPARE=false`) a session lock does not stay on one server connection:
 *   nothing is claimed (`owner()` is null) and nobody is known to be gone; the timeouts decide, as before.
 *
 * `owner()` is this process's id only while its lock is known held; rows claimed without it (null) fall back to the
 * timeouts. A hash collision with another live process's key only makes a dead process look alive (the safe side).
 */
import postgres from "postgres";
import { sql } from "drizzle-orm";
import type { Db } from "./db/open-database.js";
import { rowsOf } from "./db/rows.js";
import { errorMessage, type Logger } from "./log.js";

export interface Liveness {
  /** This process's id while others can tell it is alive; null when they cannot. */
  owner(): string | null;
  /** True when `owner` is certainly not running any more. */
  isGone(owner: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The advisory lock class of process locks (the object is `hashtext(instance id)`). */
export const PROCESS_LOCK_CLASS = 91_731;
/** How often the lock is asserted again (after a reconnection it is taken anew). */
const REASSERT_MS = 10_000;

export type LivenessStore = { kind: "pglite" } | { kind: "postgres"; url: string; sessionLocks: boolean };

export function startLiveness(store: LivenessStore, db: Db, self: string, log: Logger): Liveness {
  if (store.kind === "pglite") {
    return { owner: () => self, isGone: async (owner) => owner !== self, close: async () => {} };
  }
  if (!store.sessionLocks) return { owner: () => null, isGone: async () => false, close: async () => {} };

  let held = false;
  let closed = false;
  const conn = postgres(store.url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: 0,
    onnotice: () => {},
    onclose: () => {
      held = false;
    },
  });
  const assert = async () => {
    if (closed) return;
    try {
      const [row] = await conn`select pg_try_advisory_lock(${PROCESS_LOCK_CLASS}, hashtext(${self})) as ok`;
      held = row?.ok === true;
      if (!held) log.warn("liveness.lock_taken", { detail: "another session holds this process's lock key; crashed requests wait for their timeout" });
    } catch (error) {
      held = false;
      log.warn("liveness.lock_failed", { error: errorMessage(error) });
    }
  };
  const ready = assert();
  const timer = setInterval(() => void assert(), REASSERT_MS);
  timer.unref?.();
  return {
    owner: () => (held ? self : null),
    async isGone(owner) {
      if (owner === self) return false;
      const rows = rowsOf<{ free: boolean }>(await db.execute(sql`select pg_try_advisory_xact_lock(${PROCESS_LOCK_CLASS}, hashtext(${owner})) as free`));
      return rows[0]?.free === true;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await ready;
      await conn.end({ timeout: 5 });
    },
  };
}
