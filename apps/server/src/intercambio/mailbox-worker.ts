/**
 * The IMAP door's worker (API.md §12 door 3): a round (a pg-boss job, `jobs/boss-loop.ts`) claims the mailboxes that
 * are due (`imap_next_check_at`, one statement with `FOR UPDATE SKIP LOCKED`, moved forward by a lease that doubles
 * as the claim token) into its free slots and starts their polls, then returns: each poll runs on its own, under its
 * own deadline, so one business's slow server holds one slot, never the round or the other businesses' polls. A
 * finished poll records `imap_checked_at` and `imap_error` and sets the next check a minute later (at once when the
 * per-poll bound left messages), only while its claim still stands: a PUT of the URL meanwhile wins.
 */
import { and, eq, sql } from "drizzle-orm";
import { businesses, type BusinessRow } from "../db/businesses.js";
import { rowsOf } from "../db/rows.js";
import type { Deps } from "../deps.js";
import { errorMessage } from "../log.js";
import { storedMailbox } from "../modules/businesses/mailbox-columns.js";
import { pollMailbox, POLL_DEFAULTS, type MailboxPollOptions, type MailboxPollResult } from "./poll-mailbox.js";

export interface MailboxWorkerOptions extends MailboxPollOptions {
  /** Polls in flight at once in this process (default 16): a slow server holds one of them, under its deadline. */
  concurrency?: number;
  /** Between two polls of one mailbox (default a minute). */
  everyMs?: number;
}

export interface MailboxWorker {
  /** Claims due mailboxes into the free slots and starts their polls; true when every slot is taken. */
  tick(): Promise<boolean>;
  /** Resolves when no poll is in flight. */
  idle(): Promise<void>;
  /** Aborts the polls in flight (their claims run out and they are polled again) and waits for them. */
  stop(): Promise<void>;
}

const EVERY_MS = 60_000;

/** Claims up to `limit` due mailboxes: their rows with `imap_next_check_at` moved to `token` (now + lease). */
async function claimMailboxes(deps: Deps, limit: number, token: Date): Promise<BusinessRow[]> {
  const now = deps.now().toISOString();
  const claimed = rowsOf<{ id: string }>(
    await deps.db.execute(sql`
      update businesses set imap_next_check_at = ${token.toISOString()}::timestamptz
      where id in (
        select id from businesses
        where imap_url_enc is not null and deleted_at is null and imap_next_check_at <= ${now}::timestamptz
        order by imap_next_check_at
        limit ${limit}
        for update skip locked
      )
      returning id`),
  );
  if (claimed.length === 0) return [];
  const rows = await deps.db.select().from(businesses).where(sql`${businesses.id} in (${sql.join(claimed.map((c) => sql`${c.id}`), sql`, `)})`);
  return rows.filter((r) => r.imapNextCheckAt?.getTime() === token.getTime());
}

export function createMailboxWorker(deps: Deps, options: MailboxWorkerOptions = {}): MailboxWorker {
  const concurrency = options.concurrency ?? 16;
  const everyMs = options.everyMs ?? EVERY_MS;
  const leaseMs = (options.deadlineMs ?? POLL_DEFAULTS.deadlineMs) + 180_000;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();

  const claimHolds = (row: BusinessRow, token: Date) => and(eq(businesses.id, row.id), eq(businesses.imapNextCheckAt, token));

  async function poll(row: BusinessRow, token: Date): Promise<void> {
    const target = storedMailbox(deps, row);
    let result: MailboxPollResult = { error: "mailbox", more: false };
    if (target) {
      result = await pollMailbox(
        deps,
        row,
        target,
        { uidValidity: row.imapUidValidity, lastUid: row.imapLastUid ?? 0 },
        async (p) => (await deps.db.update(businesses).set({ imapUidValidity: p.uidValidity, imapLastUid: p.lastUid }).where(claimHolds(row, token)).returning({ id: businesses.id })).length > 0,
        options,
        stopping.signal,
      );
    }
    const now = deps.now();
    // Stopped mid-poll: due again at once, for whichever process takes it.
    if (stopping.signal.aborted) return void (await deps.db.update(businesses).set({ imapNextCheckAt: now }).where(claimHolds(row, token)));
    await deps.db
      .update(businesses)
      .set({ imapCheckedAt: now, imapError: result.error, imapNextCheckAt: result.more ? now : new Date(now.getTime() + everyMs) })
      .where(claimHolds(row, token));
    if (result.error) deps.log.warn("imap.poll_failed", { business_id: row.id, host: row.imapHost, error: result.error });
  }

  function launch(row: BusinessRow, token: Date): void {
    const run = poll(row, token)
      .catch((error: unknown) => deps.log.error("imap.poll_error", { business_id: row.id, error: errorMessage(error) }))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  }

  async function idle(): Promise<void> {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  return {
    async tick() {
      const free = concurrency - inFlight.size;
      if (stopping.signal.aborted || free <= 0) return false;
      const token = new Date(deps.now().getTime() + leaseMs);
      const claimed = await claimMailboxes(deps, free, token);
      for (const row of claimed) launch(row, token);
      return claimed.length === free;
    },
    idle,
    async stop() {
      stopping.abort();
      await idle();
    },
  };
}
