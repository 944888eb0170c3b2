import { expect, test } from "bun:test";
import fs, { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensurePrivateDirectory } from "./private-directory.js";

const modeOf = (path: string) => statSync(path).mode & 0o777;

test("an existing 0755 data directory and the 0666 files an earlier run left become 0700 and 0600", () => {
  const dir = mkdtempSync(join(tmpdir(), "timbre-private-"));
  try {
    mkdirSync(join(dir, "pgdata", "base"), { recursive: true });
    writeFileSync(join(dir, "pgdata", "base", "1259"), "x");
    chmodSync(join(dir, "pgdata", "base", "1259"), 0o666);
    chmodSync(join(dir, "pgdata", "base"), 0o777);
    chmodSync(dir, 0o755);
    ensurePrivateDirectory(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, "pgdata", "base"))).toBe(0o700);
    expect(modeOf(join(dir, "pgdata", "base", "1259"))).toBe(0o600);
    // What is written later, even with an explicit 0666 chmod through the fs module (as PGlite's file system
    // does), stays private; outside the directory a chmod is left alone.
    writeFileSync(join(dir, "pgdata", "base", "16384"), "y", { mode: 0o666 });
    fs.chmodSync(join(dir, "pgdata", "base", "16384"), 0o666);
    const outside = `${dir}-outside`;
    writeFileSync(outside, "z");
    fs.chmodSync(outside, 0o644);
    expect(modeOf(outside)).toBe(0o644);
    rmSync(outside);
    expect(modeOf(join(dir, "pgdata", "base", "16384"))).toBe(0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
