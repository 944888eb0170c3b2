/**
 * Group commit for SII uploads: documents that become ready while an upload for the same group (business,
 * environment, envelope kind) is in flight wait and travel together in the next envelope. (The same mechanism
 * gathers emissions into shared transactions and small reads into shared statements.) With nothing in flight a
 * document leaves at once (after the current turn of the event loop, so documents signed in the same turn share the
 * envelope).
 * This keeps the number of SII calls low under load without adding latency when idle.
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
}

interface Waiting<Item, Result> {
  item: Item;
  resolve: (r: Result) => void;
  reject: (e: unknown) => void;
}

interface Group<Item, Result> {
  queue: Waiting<Item, Result>[];
  inFlight: number;
  scheduled: boolean;
}

export class GroupCommitter<Item, Result> {
  private readonly groups = new Map<string, Group<Item, Result>>();

  constructor(private readonly options: GroupCommitOptions<Item, Result>) {}

  /** Queues one item; resolves with its result once the envelope carrying it was uploaded. */
  submit(groupKey: string, item: Item): Promise<Result> {
    const group = this.groupFor(groupKey);
    const promise = new Promise<Result>((resolve, reject) => group.queue.push({ item, resolve, reject }));
    this.schedule(groupKey, group);
    return promise;
  }

  /** Items waiting (not yet in an upload), for metrics and tests. */
  pending(groupKey: string): number {
    return this.groups.get(groupKey)?.queue.length ?? 0;
  }

  private groupFor(key: string): Group<Item, Result> {
    let g = this.groups.get(key);
    if (!g) {
      g = { queue: [], inFlight: 0, scheduled: false };
      this.groups.set(key, g);
    }
    return g;
  }

  private get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? 1);
  }

  private schedule(key: string, group: Group<Item, Result>): void {
    if (group.inFlight >= this.concurrency || group.scheduled) return;
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
    const batch = group.queue.splice(0, Math.max(1, this.options.maxBatch(key)));
    try {
      const results = await this.options.flush(
        key,
        batch.map((w) => w.item),
      );
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
    if (group.inFlight === 0 && !group.scheduled && group.queue.length === 0 && this.groups.get(key) === group) this.groups.delete(key);
  }
}
