import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireLock, LockedError } from "./lock-file.js";

const withDir = (fn: (dir: string) => void) => {
  const dir = mkdtempSync(join(tmpdir(), "timbre-lock-"));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

test("exclusive: holds the pid; a second live holder is refused with a clear message; release removes it", () => {
  withDir((dir) => {
    const path = join(dir, "timbre.lock");
    const lock = acquireLock(path);
    expect(readFileSync(path, "utf8")).toBe(String(process.pid));
    // Another live process (our parent) holding it:
    writeFileSync(path, String(process.ppid));
    expect(() => acquireLock(path)).toThrow(LockedError);
    expect(() => acquireLock(path)).toThrow(/in use by process/);
    writeFileSync(path, String(process.pid));
    lock.release();
    expect(existsSync(path)).toBe(false);
  });
});

test("a stale lock (dead pid) is taken over", () => {
  withDir((dir) => {
    const path = join(dir, "timbre.lock");
    writeFileSync(path, "999999");
    const lock = acquireLock(path);
    expect(readFileSync(path, "utf8")).toBe(String(process.pid));
    lock.release();
  });
});
