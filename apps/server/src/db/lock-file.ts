/**
 * An exclusive lock on the embedded data directory (PGlite does not lock it itself): a Unix domain socket in the
 * directory that the owner listens on. The kernel closes it when the owner dies, however it dies (SIGKILL, or a
 * zombie not yet reaped), so a live owner accepts a connection and answers its pid, while a dead one's socket file
 * refuses it (or closes it unanswered): that stale file is taken over. No pid is trusted, so pid reuse (containers) cannot keep a lock alive.
 */
import { randomBytes } from "node:crypto";
import { linkSync, renameSync, statSync, unlinkSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { relative } from "node:path";

export interface DirectoryLock {
  path: string;
  release(): void;
}

export class LockedError extends Error {}

/** sun_path holds 108 bytes with its terminating NUL. */
const MAX_SOCKET_PATH = 107;
const PROBE_TIMEOUT_MS = 2_000;

export async function acquireLock(path: string): Promise<DirectoryLock> {
  socketAddress(path); // refuses a path no socket can be bound at, before anything is tried
  for (let attempt = 0; attempt < 5; attempt++) {
    const server = await listen(path);
    if (server) return owned(path, server);
    const holder = await probe(path);
    if (holder.alive) throw lockedBy(path, holder.pid);
    await removeStale(path);
  }
  throw new LockedError(`could not take the lock ${path}`);
}

function lockedBy(path: string, pid: string): LockedError {
  return new LockedError(
    `the data directory is in use by process ${pid || "(unknown)"} (lock ${path}); ` +
      "embedded mode allows one server process — stop it, or set DATABASE_URL to share a PostgreSQL",
  );
}

/**
 * The address to bind or connect a socket file at: its absolute path, or — when that is longer than a socket
 * address may be (a deep checkout) — the same file relative to the working directory, which the process never
 * changes. Files are still moved and removed by their absolute path.
 */
function socketAddress(path: string): string {
  if (Buffer.byteLength(path) <= MAX_SOCKET_PATH) return path;
  const near = relative(process.cwd(), path);
  if (Buffer.byteLength(near) <= MAX_SOCKET_PATH) return near;
  throw new LockedError(`the lock ${path} is longer than a Unix socket address may be (${MAX_SOCKET_PATH} bytes): choose a shorter TIMBRE_DATA_DIR`);
}

/** Listens on `path`; null when something already exists there (a live or stale lock). */
function listen(path: string): Promise<Server | null> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.end(`${process.pid}\n`));
    server.once("error", (error: NodeJS.ErrnoException) => (error.code === "EADDRINUSE" ? resolve(null) : reject(error)));
    server.listen(socketAddress(path), () => resolve(server));
  });
}

function owned(path: string, server: Server): DirectoryLock {
  // The socket does not keep the event loop alive: the server's own work decides when the process ends.
  server.unref();
  const inode = statSync(path).ino;
  return {
    path,
    release: () => {
      server.close();
      try {
        // Only our own socket file: a successor's must stay.
        if (statSync(path).ino === inode) unlinkSync(path);
      } catch {
        /* already gone */
      }
    },
  };
}

/** Connects to the lock: a live owner accepts and answers its pid; a dead one's file refuses (or is no socket). */
function probe(path: string): Promise<{ alive: boolean; pid: string }> {
  return new Promise((resolve) => {
    let text = "";
    let connected = false;
    const socket = connect(socketAddress(path));
    const done = (alive: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ alive, pid: text.trim() });
    };
    // The kernel completes a connection into the listener's backlog before the owner accepts it: an owner too
    // busy to answer is alive, but a socket that closes without an answer belonged to an owner that is dying.
    const timer = setTimeout(() => done(connected), PROBE_TIMEOUT_MS);
    socket.on("connect", () => (connected = true));
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("end", () => done(text.trim() !== ""));
    socket.on("error", () => done(false));
  });
}

/**
 * Moves a stale lock aside and deletes it. The move is atomic; if a live owner's socket was moved instead (it
 * took the lock between our probe and the move), it is put back, and the next attempt meets that owner.
 */
async function removeStale(path: string): Promise<void> {
  const aside = `${path}.${randomBytes(4).toString("hex")}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already: someone else is taking it over, the next attempt decides
  }
  if ((await probe(aside)).alive) {
    try {
      linkSync(aside, path);
    } catch {
      /* a third process holds the path now */
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    /* already gone */
  }
}
