import { expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireLock, LockedError } from "./lock-file.js";

const withDir = async (fn: (dir: string) => Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), "timbre-lock-"));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

test("exclusive: a socket its owner listens on; a second taker is refused naming the owner; release removes it", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "timbre.lock");
    const lock = await acquireLock(path);
    expect(lstatSync(path).isSocket()).toBe(true);
    const refused = await acquireLock(path).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockedError);
    expect((refused as Error).message).toContain(`in use by process ${process.pid}`);
    lock.release();
    expect(existsSync(path)).toBe(false);
    (await acquireLock(path)).release();
  });
});

test("a file that is not a live socket (a pid lock of an older version, even naming a live pid) is taken over", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "timbre.lock");
    writeFileSync(path, String(process.ppid));
    const lock = await acquireLock(path);
    expect(lstatSync(path).isSocket()).toBe(true);
    lock.release();
  });
});

test("a data directory whose lock path cannot be a socket path is refused with the setting to change", async () => {
  const refused = await acquireLock(join("/tmp", "x".repeat(120), "timbre.lock")).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(LockedError);
  expect((refused as Error).message).toContain("TIMBRE_DATA_DIR");
});

test("a deep data directory still locks: the socket is bound by its path relative to the working directory", async () => {
  await withDir(async (dir) => {
    const deep = join(dir, "d".repeat(100));
    mkdirSync(deep);
    const path = join(deep, "timbre.lock");
    expect(Buffer.byteLength(path)).toBeGreaterThan(107);
    const cwd = process.cwd();
    process.chdir(deep);
    try {
      const lock = await acquireLock(path);
      expect(lstatSync(path).isSocket()).toBe(true);
      const refused = await acquireLock(path).catch((e: unknown) => e);
      expect((refused as Error).message).toContain(`in use by process ${process.pid}`);
      lock.release();
      expect(existsSync(path)).toBe(false);
    } finally {
      process.chdir(cwd);
    }
  });
});
