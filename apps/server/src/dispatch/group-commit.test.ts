import { describe, expect, test } from "bun:test";
import { decayedArrivals, GroupCommitter } from "./group-commit.js";

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("GroupCommitter", () => {
  test("items submitted in the same tick share one batch", async () => {
    const batches: number[][] = [];
    const gc = new GroupCommitter<number, string>({
      flush: async (_k, items) => {
        batches.push(items);
        return items.map((i) => `ok${i}`);
      },
      maxBatch: () => 100,
    });
    const results = await Promise.all([1, 2, 3].map((i) => gc.submit("biz/test/dte", i)));
    expect(results).toEqual(["ok1", "ok2", "ok3"]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  test("items arriving during an upload wait and travel together in the next one", async () => {
    const batches: number[][] = [];
    const gate = deferred<void>();
    const gc = new GroupCommitter<number, number>({
      flush: async (_k, items) => {
        batches.push(items);
        if (batches.length === 1) await gate.promise;
        return items;
      },
      maxBatch: () => 100,
    });
    const first = gc.submit("g", 1);
    await new Promise((r) => setTimeout(r, 5));
    const later = [2, 3, 4].map((i) => gc.submit("g", i));
    await new Promise((r) => setTimeout(r, 5));
    expect(gc.pending("g")).toBe(3);
    gate.resolve();
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual([2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  test("groups are independent and batches respect the maximum size", async () => {
    const batches: Array<[string, number[]]> = [];
    const gc = new GroupCommitter<number, number>({
      flush: async (k, items) => {
        batches.push([k, items]);
        return items;
      },
      maxBatch: (k) => (k === "boletas" ? 2 : 10),
    });
    await Promise.all([...[1, 2, 3, 4, 5].map((i) => gc.submit("boletas", i)), gc.submit("facturas", 9)]);
    expect(batches.filter(([k]) => k === "boletas").map(([, b]) => b)).toEqual([[1, 2], [3, 4], [5]]);
    expect(batches.filter(([k]) => k === "facturas").map(([, b]) => b)).toEqual([[9]]);
  });

  test("a failed upload rejects every item of its batch and the next batch still runs", async () => {
    let calls = 0;
    const gc = new GroupCommitter<number, number>({
      flush: async (_k, items) => {
        calls++;
        if (calls === 1) throw new Error("SII down");
        return items;
      },
      maxBatch: () => 1,
    });
    const a = gc.submit("g", 1);
    const b = gc.submit("g", 2);
    await expect(a).rejects.toThrow("SII down");
    expect(await b).toBe(2);
  });

  test("concurrency 2: a second batch starts while the first is in flight, a third waits for one of them", async () => {
    const batches: number[][] = [];
    const gates = [deferred<void>(), deferred<void>()];
    const gc = new GroupCommitter<number, number>({
      flush: async (_k, items) => {
        const n = batches.push(items);
        if (n <= 2) await gates[n - 1]?.promise;
        return items;
      },
      maxBatch: () => 100,
      concurrency: 2,
    });
    const first = gc.submit("g", 1);
    await new Promise((r) => setTimeout(r, 5));
    const second = gc.submit("g", 2);
    await new Promise((r) => setTimeout(r, 5));
    const later = [3, 4].map((i) => gc.submit("g", i));
    await new Promise((r) => setTimeout(r, 5));
    expect(batches).toEqual([[1], [2]]);
    expect(gc.pending("g")).toBe(2);
    gates[1]?.resolve(); // the second ends first: the waiting items go at once
    expect(await second).toBe(2);
    expect(await Promise.all(later)).toEqual([3, 4]);
    expect(batches).toEqual([[1], [2], [3, 4]]);
    gates[0]?.resolve();
    expect(await first).toBe(1);
    expect(gc.pending("g")).toBe(0);
  });
});

describe("GroupCommitter prepare", () => {
  test("each item is prepared once, in order, as it joins the next batch; the batch after waits until this one's flush began", async () => {
    const events: string[] = [];
    const gate = deferred<void>();
    const gc = new GroupCommitter<number, number>({
      prepare: (_k, item) => events.push(`prepare ${item}`),
      flush: async (_k, items) => {
        events.push(`flush ${items.join(",")}`);
        if (items[0] === 1) await gate.promise;
        return items;
      },
      maxBatch: () => 2,
    });
    const first = gc.submit("g", 1);
    await new Promise((r) => setImmediate(r));
    // Batch [1] is in flight: 2 and 3 make the next batch (prepared at once), 4 and 5 the one after (not yet).
    const rest = [2, 3, 4, 5].map((i) => gc.submit("g", i));
    expect(events).toEqual(["prepare 1", "flush 1", "prepare 2", "prepare 3"]);
    gate.resolve();
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4, 5]);
    expect(events).toEqual(["prepare 1", "flush 1", "prepare 2", "prepare 3", "flush 2,3", "prepare 4", "prepare 5", "flush 4,5"]);
  });

  test("a flush that throws at once still leaves every later item prepared before its own flush", async () => {
    const prepared: number[] = [];
    const flushed: number[][] = [];
    const gc = new GroupCommitter<number, number>({
      prepare: (_k, item) => prepared.push(item),
      flush: (_k, items) => {
        flushed.push(items);
        if (items[0] === 1) throw new Error("refused");
        return Promise.resolve(items);
      },
      maxBatch: () => 1,
    });
    const results = await Promise.allSettled([1, 2, 3].map((i) => gc.submit("g", i)));
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    expect(flushed).toEqual([[1], [2], [3]]);
    expect(prepared).toEqual([1, 2, 3]);
  });
});

describe("GroupCommitter linger", () => {
  const turn = () => new Promise((r) => setImmediate(r));
  const LINGER = { ms: 40, batch: 6, expected: 4 };
  const committer = (clock: { t: number }, batches: number[][]) =>
    new GroupCommitter<number, number>({
      flush: async (_k, items) => {
        batches.push(items);
        return items;
      },
      maxBatch: () => 100,
      linger: LINGER,
      now: () => clock.t,
    });
  /** Submits `items` `every` ms apart on the test's clock, a turn of the event loop after each. */
  const arrive = async (gc: GroupCommitter<number, number>, clock: { t: number }, items: number[], every: number) => {
    const results: Array<Promise<number>> = [];
    for (const i of items) {
      clock.t += every;
      results.push(gc.submit("g", i));
      await turn();
    }
    return results;
  };
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  /** 200 ms of one item every 4 ms (10 expected within 40 ms), batched however the committer likes. */
  const pace = async (gc: GroupCommitter<number, number>, clock: { t: number }) => {
    const results: Array<Promise<number>> = [];
    for (const i of range(1000, 50)) {
      clock.t += 4;
      results.push(gc.submit("g", i));
      await turn();
    }
    clock.t += 1_000_000; // whatever wait was set is over when its timer fires…
    await Promise.all(results);
    clock.t -= 1_000_000; // …and the pace goes on as before
  };
  /** A committer that has seen 200 ms of that pace; `batches` holds only what comes after. */
  const paced = async () => {
    const clock = { t: 0 };
    const batches: number[][] = [];
    const gc = committer(clock, batches);
    await pace(gc, clock);
    batches.length = 0;
    return { clock, batches, gc };
  };

  test("decayedArrivals tends to the rate times the window", () => {
    let count = 0;
    for (let i = 0; i < 2_000; i++) count = decayedArrivals(count, 5, 200) + 1; // one every 5 ms
    expect(count).toBeGreaterThan(39);
    expect(count).toBeLessThan(41.5);
    expect(decayedArrivals(40, 200, 200)).toBeCloseTo(40 / Math.E, 6);
    expect(decayedArrivals(7, 0, 200)).toBe(7);
  });

  test("items arriving fast wait for company, and go at once when the batch is big enough", async () => {
    const clock = { t: 0 };
    const batches: number[][] = [];
    const gc = committer(clock, batches);
    const first = await arrive(gc, clock, [1], 2); // no pace known yet: at once
    expect(batches).toEqual([[1]]);
    await pace(gc, clock);
    batches.length = 0;
    const next = await arrive(gc, clock, [2, 3, 4, 5, 6], 2);
    expect(batches).toEqual([]);
    expect(gc.pending("g")).toBe(5);
    const last = await arrive(gc, clock, [7], 2); // the sixth waiting: no more waiting
    await Promise.all([...first, ...next, ...last]);
    expect(batches).toEqual([[2, 3, 4, 5, 6, 7]]);
  });

  test("arrivals bunched after a pause still count at their rate", async () => {
    const { clock, batches, gc } = await paced();
    // The event loop was busy for 40 ms: the next items arrive together. (A moving average of the gaps, weight 0.2,
    // went from 4 to 11 ms here: fewer than four expected within 40 ms, no wait.)
    clock.t += 40;
    const bunched = await arrive(gc, clock, [1, 2, 3], 0);
    expect(batches).toEqual([]);
    expect(gc.pending("g")).toBe(3);
    clock.t += 1_000;
    await Promise.all(bunched);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  test("items arriving slowly go at once, each in its own batch", async () => {
    const clock = { t: 0 };
    const batches: number[][] = [];
    const gc = committer(clock, batches);
    for (let i = 1; i <= 20; i++) {
      clock.t += 15; // one every 15 ms: fewer than three expected within 40 ms
      expect(await gc.submit("g", i)).toBe(i);
    }
    expect(batches).toEqual(range(1, 20).map((i) => [i]));
  });

  test("after an idle spell the rate is forgotten: the first items go at once", async () => {
    const { clock, batches, gc } = await paced();
    clock.t += 2_000; // ten windows without an arrival
    expect(await gc.submit("g", 1)).toBe(1);
    expect(batches).toEqual([[1]]);
  });

  test("a lingering batch goes when its oldest item has waited long enough", async () => {
    const { clock, batches, gc } = await paced();
    const all = await arrive(gc, clock, [1, 2, 3], 1);
    expect(batches).toEqual([]);
    expect(gc.pending("g")).toBe(3);
    clock.t += 1_000; // when the timer set for the wait fires, the oldest has waited long enough
    await Promise.all(all);
    expect(batches).toEqual([[1, 2, 3]]);
  });
});
