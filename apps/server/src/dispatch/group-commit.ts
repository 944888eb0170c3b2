/**
 * Group commit for SII uploads: documents that become ready while an upload for the same group (business,
 * environment, envelope kind) is in flight wait and travel together in the next envelope. (The same mechanism
 * gathers emissions into shared transactions and small reads into shared statements.) With nothing in flight a
 * document leaves at once (after the current turn of the event loop, so documents signed in the same turn share the
 * envelope).
 * This keeps the number of SII calls low under load without adding latency when idle.
 *
 * `linger` (optional) lets a batch wait a little for company when items arrive fast: a batch that has fewer than
 * `linger.batch` items, while the recent arrivals say at least `linger.expected` more would come within `linger.ms`,
 * starts when the oldest has waited `linger.ms` (or once `linger.batch` wait). Where every batch has a fixed cost
 * much larger than an item's (an emission round with its envelope: ≈ 8 ms of CPU against ≈ 1.6 ms per document,
 * bench/RESULTS.md §6), bigger batches under moderate load free more CPU than the wait costs; at low rates nothing
 * waits, and at high rates batches are full anyway.
 */

export interface GroupCommitOptions<Item, Result> {
  /** Uploads one batch; resolves with one result per item, in order. */
  flush: (groupKey: string, items: Item[]) => Promise<Result[]>;
  /** Upper bound of items per batch (EnvioDTE: 2000, EnvioBOLETA: 500). */
  maxBatch: (groupKey: string) => number;
  /**
   * Batches of one group in flight at once (default 1). With more, a batch can start while an earlier one waits
   * (e.g. for a commit's disk flush) instead of queueing behind it; batches are then smaller under light load.
   */
  concurrency?: number;
  linger?: LingerOptions;
  /**
   * Called once for each item as it becomes part of the next batch (the head of its group's queue, up to
   * `maxBatch`), in queue order: on arrival when the next batch has room, else when the batch before it leaves.
   * Every call for a batch comes before the calls for the batch after it, and the synchronous part of a batch's
   * `flush` runs before the next batch's first call. Work that can start before the batch does (an emission's
   * signing: `modules/dte/create-document.ts`) overlaps with the wait for company or for a free slot. Must not throw.
   */
  prepare?: (groupKey: string, item: Item) => void;
  /** The clock (tests). */
  now?: () => number;
}

export interface LingerOptions {
  /** The longest an item waits for company (ms). */
  ms: number;
  /** A batch this big does not wait. */
  batch: number;
  /**
   * Wait only when at least this many more items are expected within `ms`, at the recent rate of arrivals: arrivals
   * counted with an exponential decay over `RATE_WINDOW_LINGERS` × `ms`, so that items arriving bunched (after a
   * pause of the event loop, say) count for what they are and a steady rate gives a steady answer.
   */
  expected: number;
}

interface Waiting<Item, Result> {
  item: Item;
  at: number;
  resolve: (r: Result) => void;
  reject: (e: unknown) => void;
}

interface Group<Item, Result> {
  queue: Waiting<Item, Result>[];
  /** The items at the head of `queue` that `prepare` was called for. */
  prepared: number;
  inFlight: number;
  scheduled: boolean;
  /** A wait for company in progress (`linger`). */
  lingering: ReturnType<typeof setTimeout> | null;
  /** Arrivals counted with exponential decay (`decayedArrivals`), as of `countedAt`. */
  arrivals: number;
  countedAt: number;
}

/**
 * The window of the rate of arrivals, in lingers: the time constant of their decay. A moving average of the gaps
 * between arrivals (weight 0.2, the first version) swung with every pause of the event loop — four arrivals
 * bunched after a 20-ms pause raised it by 3 ms — and at a steady 210/s, near its threshold, the wait came and went:
 * 3.4 documents per envelope instead of 5 (bench/RESULTS.md §6, 2026-11-27, seventh session).
 */
export const RATE_WINDOW_LINGERS = 5;

/**
 * Arrivals counted with exponential decay: each adds one, and the count decays by e every `window` ms. At a steady
 * rate r per ms it tends to r × window (from below, within ≈ 2 windows).
 *
 * @example
 * decayedArrivals(10, 0, 200); // 10: no time passed
 */
export function decayedArrivals(count: number, elapsed: number, window: number): number {
  return elapsed <= 0 ? count : count * Math.exp(-elapsed / window);
}

export class GroupCommitter<Item, Result> {
  private readonly groups = new Map<string, Group<Item, Result>>();

  constructor(private readonly options: GroupCommitOptions<Item, Result>) {}

  /** Queues one item; resolves with its result once the envelope carrying it was uploaded. */
  submit(groupKey: string, item: Item): Promise<Result> {
    const group = this.groupFor(groupKey);
    const at = this.now();
    if (this.options.linger !== undefined) {
      group.arrivals = this.recentArrivals(group, this.options.linger, at) + 1;
      group.countedAt = at;
    }
    const promise = new Promise<Result>((resolve, reject) => group.queue.push({ item, at, resolve, reject }));
    this.prepareHead(groupKey, group);
    this.schedule(groupKey, group);
    return promise;
  }

  private now(): number {
    return this.options.now?.() ?? performance.now();
  }

  /** The group's arrivals counted up to `at`, decayed over the rate's window (`RATE_WINDOW_LINGERS` lingers). */
  private recentArrivals(group: Group<Item, Result>, linger: LingerOptions, at: number): number {
    return decayedArrivals(group.arrivals, at - group.countedAt, linger.ms * RATE_WINDOW_LINGERS);
  }

  /** How long the next batch should still wait for company (0: go). */
  private lingerFor(group: Group<Item, Result>): number {
    const linger = this.options.linger;
    const oldest = group.queue[0];
    if (linger === undefined || oldest === undefined || group.queue.length >= linger.batch) return 0;
    const now = this.now();
    // Items expected within one linger at the recent rate: the count over the window, scaled to one linger.
    const expected = this.recentArrivals(group, linger, now) / RATE_WINDOW_LINGERS;
    if (expected < linger.expected) return 0; // too few arrivals lately to be worth a wait
    return Math.max(0, oldest.at + linger.ms - now);
  }

  /** Calls `prepare` for the items of the next batch it was not called for yet. */
  private prepareHead(key: string, group: Group<Item, Result>): void {
    const prepare = this.options.prepare;
    if (prepare === undefined) return;
    const head = Math.min(group.queue.length, Math.max(1, this.options.maxBatch(key)));
    while (group.prepared < head) prepare(key, (group.queue[group.prepared++] as Waiting<Item, Result>).item);
  }

  /** Items waiting (not yet in an upload), for metrics and tests. */
  pending(groupKey: string): number {
    return this.groups.get(groupKey)?.queue.length ?? 0;
  }

  private groupFor(key: string): Group<Item, Result> {
    let g = this.groups.get(key);
    if (!g) {
      g = { queue: [], prepared: 0, inFlight: 0, scheduled: false, lingering: null, arrivals: 0, countedAt: this.now() };
      this.groups.set(key, g);
    }
    return g;
  }

  private get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? 1);
  }

  private schedule(key: string, group: Group<Item, Result>): void {
    if (group.inFlight >= this.concurrency || group.scheduled) return;
    const wait = this.lingerFor(group);
    if (wait > 0) {
      group.lingering ??= setTimeout(() => {
        group.lingering = null;
        this.schedule(key, group);
      }, wait);
      return;
    }
    if (group.lingering !== null) {
      clearTimeout(group.lingering);
      group.lingering = null;
    }
    group.scheduled = true;
    // After the I/O callbacks of this turn of the event loop (not a timer: `setTimeout(0)` waits ≥ 1 ms, which
    // every coalesced step of an idle request would pay).
    setImmediate(() => {
      group.scheduled = false;
      void this.run(key, group);
    });
  }

  private async run(key: string, group: Group<Item, Result>): Promise<void> {
    if (group.queue.length === 0) return this.forgetIfIdle(key, group);
    if (group.inFlight >= this.concurrency) return;
    group.inFlight++;
    this.prepareHead(key, group); // a no-op unless a flush threw before its next batch was prepared
    const batch = group.queue.splice(0, Math.max(1, this.options.maxBatch(key)));
    group.prepared = Math.max(0, group.prepared - batch.length);
    try {
      const flushed = this.options.flush(
        key,
        batch.map((w) => w.item),
      );
      // The next batch's items, once this batch's flush has begun (see `prepare`).
      this.prepareHead(key, group);
      const results = await flushed;
      batch.forEach((w, i) => {
        if (i < results.length) w.resolve(results[i] as Result);
        else w.reject(new Error("flush returned fewer results than items"));
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      group.inFlight--;
      if (group.queue.length > 0) this.schedule(key, group);
      else this.forgetIfIdle(key, group);
    }
  }

  private forgetIfIdle(key: string, group: Group<Item, Result>): void {
    // A lingering committer keeps its groups: their recent rate of arrivals decides the next wait (one group per key;
    // the emission committer has one).
    if (this.options.linger !== undefined) return;
    if (group.inFlight === 0 && !group.scheduled && group.queue.length === 0 && this.groups.get(key) === group) this.groups.delete(key);
  }
}
