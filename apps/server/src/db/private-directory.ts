/**
 * The embedded data directory holds the whole database and the generated secrets: only its owner may read it. An
 * existing directory is narrowed to 0700 (it may have been made 0755 by hand or by an older version), the
 * process's umask becomes 077, and PGlite's file modes are kept private: its WebAssembly file system creates each
 * file and then chmods it to 0666 itself, which no umask narrows, so chmods inside the directory drop the group and
 * other bits (0666 → 0600).
 */
import fs, { chmodSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";

const privateRoots = new Set<string>();

export function ensurePrivateDirectory(dir: string): void {
  process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  privateRoots.add(resolve(dir) + sep);
  installChmodGuard();
  narrowExisting(dir);
}

/** What an earlier version left readable by others (PGlite's 0666 files) becomes 0600, directories 0700. */
function narrowExisting(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() && !entry.isDirectory()) continue;
    const path = join(entry.parentPath, entry.name);
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
  }
}

let installed = false;

function installChmodGuard(): void {
  if (installed) return;
  installed = true;
  const original = fs.chmodSync;
  fs.chmodSync = (path: fs.PathLike, mode: fs.Mode): void => {
    const inside = typeof path === "string" && [...privateRoots].some((root) => resolve(path).startsWith(root));
    original(path, inside && typeof mode === "number" ? mode & 0o700 : mode);
  };
}
