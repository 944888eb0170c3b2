/**
 * An exclusive lock on the embedded data directory (PGlite does not lock it itself). The lock file is created
 * with O_EXCL and holds the pid; a lock whose pid is dead is taken over; a live one refuses to start.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

export interface DirectoryLock {
  path: string;
  release(): void;
}

export class LockedError extends Error {}

export function acquireLock(path: string, pid = process.pid): DirectoryLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(pid));
      closeSync(fd);
      return { path, release: () => releaseLock(path, pid) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readPid(path);
      if (holder !== null && holder !== pid && isAlive(holder)) {
        throw new LockedError(
          `the data directory is in use by process ${holder} (lock file ${path}); ` +
            "embedded mode allows one server process — stop it, or set DATABASE_URL to share a PostgreSQL",
        );
      }
      // Stale (dead pid, our own pid, or unreadable): take it over.
      try {
        unlinkSync(path);
      } catch {
        /* another process took it over first; the next attempt decides */
      }
    }
  }
  throw new LockedError(`could not take the lock file ${path}`);
}

function releaseLock(path: string, pid: number): void {
  try {
    if (readPid(path) === pid) unlinkSync(path);
  } catch {
    /* already gone */
  }
}

function readPid(path: string): number | null {
  try {
    const n = Number(readFileSync(path, "utf8").trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
