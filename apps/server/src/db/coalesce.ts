/**
 * Coalescing of the small statements every request makes (API key lookup, rate-limit counter, business row) and of
 * the emissions themselves (`modules/dte/emission-committer.ts`): the
 * calls that arrive while one statement of the same kind is running wait for it to end and then go together, as ONE
 * statement (`dispatch/group-commit.ts` underneath). Idle, a call runs at once (after the current turn of the event loop); under load
 * a round trip and a statement are shared by every request of the round instead of paid by each. Every call's
 * statement starts after the call was made, so what it reads is never older than the call (a key revoked before
 * the request is refused, as without coalescing).
 */
import { GroupCommitter, type LingerOptions } from "../dispatch/group-commit.js";

/** One result per item, in order. */
export type CoalescedRun<Item, Result> = (items: Item[]) => Promise<Result[]>;

/** A run, and what to start for an item as it joins the next round (`GroupCommitOptions.prepare`). */
export interface CoalescedWork<Item, Result> {
  run: CoalescedRun<Item, Result>;
  prepare?: (item: Item) => void;
}

export interface CoalesceOptions {
  /** Items per round at most (default 256). */
  maxBatch?: number;
  /** Rounds in flight at once (default 1). */
  concurrency?: number;
  /** Let a round wait for company when calls arrive fast (`GroupCommitOptions.linger`); default: never. */
  linger?: LingerOptions;
}

export function coalesce<Item, Result>(work: CoalescedRun<Item, Result> | CoalescedWork<Item, Result>, options: CoalesceOptions = {}): (item: Item) => Promise<Result> {
  const maxBatch = options.maxBatch ?? 256;
  const { run, prepare } = typeof work === "function" ? { run: work, prepare: undefined } : work;
  const committer = new GroupCommitter<Item, Result>({
    flush: (_key, items) => run(items),
    ...(prepare ? { prepare: (_key: string, item: Item) => prepare(item) } : {}),
    maxBatch: () => maxBatch,
    concurrency: options.concurrency ?? 1,
    ...(options.linger ? { linger: options.linger } : {}),
  });
  return (item) => committer.submit("", item);
}

/** A coalescer per owner (a database handle, a `Deps`), made on first use. */
export function coalescedPer<Owner extends object, Item, Result>(
  make: (owner: Owner) => CoalescedRun<Item, Result> | CoalescedWork<Item, Result>,
  options: CoalesceOptions = {},
): (owner: Owner, item: Item) => Promise<Result> {
  const byOwner = new WeakMap<Owner, (item: Item) => Promise<Result>>();
  return (owner, item) => {
    let call = byOwner.get(owner);
    if (!call) {
      call = coalesce(make(owner), options);
      byOwner.set(owner, call);
    }
    return call(item);
  };
}
