import { expect, test } from "bun:test";
import { cachedKey } from "./key-cache.js";

test("cachedKey reads a source once, keeps at most 256 entries (oldest out) and caches no failure", () => {
  const cache = new Map<string, { n: number }>();
  let reads = 0;
  const read = (s: string) => cachedKey(cache, s, () => ({ n: ++reads }));
  const first = read("a");
  expect(read("a")).toBe(first);
  expect(reads).toBe(1);
  for (let i = 0; i < 256; i++) read(`k${i}`);
  expect(cache.size).toBe(256);
  expect(cache.has("a")).toBe(false);
  expect(read("a")).not.toBe(first);
  expect(() => cachedKey(cache, "bad", () => { throw new Error("unreadable"); })).toThrow("unreadable");
  expect(cache.has("bad")).toBe(false);
});
