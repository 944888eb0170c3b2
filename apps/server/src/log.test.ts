import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createLogger, flushLogs, stdoutLine } from "./log.js";

describe("log lines on stdout", () => {
  let writes: string[];
  let original: typeof process.stdout.write;
  beforeEach(() => {
    flushLogs();
    writes = [];
    original = process.stdout.write;
    process.stdout.write = ((chunk: string) => {
      writes.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
  });
  afterEach(() => {
    flushLogs();
    process.stdout.write = original;
  });

  test("the lines of one turn of the event loop go out in one write, in order, before the next turn", async () => {
    const log = createLogger("info");
    log.info("first", { n: 1 });
    log.debug("below the level");
    log.warn("second");
    stdoutLine("third");
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => (l.startsWith("{") ? (JSON.parse(l) as { msg: string }).msg : l))).toEqual(["first", "second", "third"]);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "info", msg: "first", n: 1 });
  });

  test("flushLogs writes what is pending at once, and nothing twice", async () => {
    stdoutLine("a");
    stdoutLine("b");
    flushLogs();
    expect(writes).toEqual(["a\nb\n"]);
    await new Promise((resolve) => setImmediate(resolve));
    flushLogs();
    expect(writes).toEqual(["a\nb\n"]);
  });
});
