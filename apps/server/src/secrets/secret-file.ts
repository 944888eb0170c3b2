/** Secret files in the data directory (`master.key`, `jwt.key`): 32 random bytes in base64, mode 0600, dir 0700. */
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

/** The file's value, or null when it does not exist. */
export function readSecretFile(path: string): string | null {
  try {
    const value = readFileSync(path, "utf8").trim();
    return value === "" ? null : value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export function newSecretValue(): string {
  return randomBytes(32).toString("base64");
}

/**
 * Writes `value` into a new file (never over an existing one). Returns false when the file already exists — another
 * process sharing the directory wrote it first; read that one instead.
 */
export function createSecretFile(dir: string, path: string, value: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, value);
  } finally {
    closeSync(fd);
  }
  return true;
}

export function removeSecretFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}
