import { expect, test } from "bun:test";
import { createPacer, forEachConcurrently, memo } from "./concurrency.js";

/** A piece of work that ends when the test says so, recording how many run at once. */
function gatedWork() {
  const gates = new Map<number, () => void>();
  let running = 0;
  let peak = 0;
  const done: number[] = [];
  return {
    work: (n: number) =>
      new Promise<void>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        gates.set(n, () => {
          running--;
          done.push(n);
          resolve();
        });
      }),
    open: (n: number) => gates.get(n)?.(),
    started: () => [...gates.keys()],
    get peak() {
      return peak;
    },
    done,
  };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

test("at most `limit` at once; a free runner takes the next item without waiting for the others", async () => {
  const g = gatedWork();
  const all = forEachConcurrently([1, 2, 3, 4, 5], 2, g.work);
  await turn();
  expect(g.started()).toEqual([1, 2]);
  g.open(2); // 1 still runs: the freed runner starts 3 at once
  await turn();
  expect(g.started()).toEqual([1, 2, 3]);
  g.open(3);
  await turn();
  g.open(4);
  await turn();
  g.open(5);
  await turn();
  expect(g.started()).toEqual([1, 2, 3, 4, 5]);
  g.open(1);
  await all;
  expect(g.done).toEqual([2, 3, 4, 5, 1]);
  expect(g.peak).toBe(2);
});

test("every item runs even when one throws; the first error is thrown at the end", async () => {
  const seen: number[] = [];
  const run = forEachConcurrently([1, 2, 3, 4], 2, async (n) => {
    seen.push(n);
    if (n === 2) throw new Error("two");
  });
  await expect(run).rejects.toThrow("two");
  expect(seen.sort()).toEqual([1, 2, 3, 4]);
});

test("no items: nothing runs; a limit above the count starts one runner per item", async () => {
  await forEachConcurrently([], 8, async () => {
    throw new Error("never");
  });
  const g = gatedWork();
  const all = forEachConcurrently([1, 2, 3], 8, g.work);
  await turn();
  expect(g.started()).toEqual([1, 2, 3]);
  for (const n of [1, 2, 3]) g.open(n);
  await all;
  expect(g.peak).toBe(3);
});

test("memo: one make per key while the map lives, its promise shared by every caller", async () => {
  const map = new Map<string, Promise<number>>();
  let made = 0;
  const make = async () => ++made;
  const [a, b] = await Promise.all([memo(map, "k", make), memo(map, "k", make)]);
  expect([a, b, made]).toEqual([1, 1, 1]);
  expect(await memo(map, "other", make)).toBe(2);
  expect(await memo(new Map(), "k", make)).toBe(3);
});

test("a pacer lets a burst go at once, then one take per interval, and fills up again when quiet", async () => {
  let clock = 1_000;
  const slept: number[] = [];
  const pacer = createPacer({
    perSecond: 10,
    burst: 3,
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
  for (let i = 0; i < 3; i++) await pacer.take();
  expect(slept).toEqual([]); // the burst
  await pacer.take();
  await pacer.take();
  expect(slept).toEqual([100, 200]); // each waits its own turn, 100 ms apart
  clock += 200; // both waits are over: the bucket is empty, the next take waits one interval
  await pacer.take();
  expect(slept).toEqual([100, 200, 100]);
  clock += 1_000; // quiet for long enough to refill the bucket (not beyond it)
  slept.length = 0;
  for (let i = 0; i < 4; i++) await pacer.take();
  expect(slept).toEqual([100]);
});
