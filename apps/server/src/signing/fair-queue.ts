/**
 * First-in first-out queues per key (a business), served in turn one item at a time: a key with a thousand items
 * queued and a key with one alternate, so the one is served after at most one item of each other key.
 */
export class FairQueue<T> {
  private readonly queues = new Map<string, T[]>();
  /** Keys with items, in the order they are served next. */
  private readonly turn: string[] = [];
  size = 0;

  push(key: string, item: T): void {
    let queue = this.queues.get(key);
    if (queue === undefined) {
      this.queues.set(key, (queue = []));
      this.turn.push(key);
    }
    queue.push(item);
    this.size++;
  }

  /** The next key's oldest item, without taking it. */
  peek(): T | undefined {
    const key = this.turn[0];
    return key === undefined ? undefined : this.queues.get(key)?.[0];
  }

  /** Takes the next key's oldest item; that key, if it has more, goes to the back of the turn. */
  take(): T | undefined {
    const key = this.turn.shift();
    if (key === undefined) return undefined;
    const queue = this.queues.get(key) ?? [];
    const item = queue.shift();
    this.size--;
    if (queue.length > 0) this.turn.push(key);
    else this.queues.delete(key);
    return item;
  }

  /** Takes everything (closing). */
  drain(): T[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.turn.length = 0;
    this.size = 0;
    return all;
  }
}
