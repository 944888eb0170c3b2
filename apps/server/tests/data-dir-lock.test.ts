/**
 * The embedded data-directory lock across real processes: a live holder refuses others; a holder killed with
 * SIGKILL — reaped, or left a zombie by a parent that never waits — frees the lock at once, whatever its pid.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { acquireLock, LockedError } from "../src/db/lock-file.js";

const HOLDER = fileURLToPath(new URL("./support/lock-holder.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "timbre-lock-procs-"));
const path = join(dir, "timbre.lock");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits for the "locked <pid>" line of a holder; `stdout` is the holder's (or its wrapper's) output. */
async function lockedPid(stdout: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stdout.getReader();
  let text = "";
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const match = /locked (\d+)/.exec(text);
    if (match?.[1]) {
      reader.releaseLock();
      return Number(match[1]);
    }
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  throw new Error(`holder did not take the lock: ${text}`);
}

const processState = (pid: number): string | null => {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0] ?? null;
  } catch {
    return null;
  }
};

test("a live holder refuses another process's taker, naming its pid", async () => {
  const holder = Bun.spawn([process.execPath, HOLDER, path], { stdout: "pipe", stderr: "inherit" });
  try {
    const pid = await lockedPid(holder.stdout);
    expect(pid).toBe(holder.pid);
    const refused = await acquireLock(path).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockedError);
    expect((refused as Error).message).toContain(`in use by process ${pid}`);
  } finally {
    holder.kill("SIGKILL");
    await holder.exited;
  }
}, 60_000);

test("a holder killed with SIGKILL leaves a stale socket that is taken over at once", async () => {
  const holder = Bun.spawn([process.execPath, HOLDER, path], { stdout: "pipe", stderr: "inherit" });
  await lockedPid(holder.stdout);
  holder.kill("SIGKILL");
  await holder.exited;
  const lock = await acquireLock(path);
  lock.release();
}, 60_000);

test("a killed holder that is still a zombie (its parent never reaps it) does not hold the lock", async () => {
  // sh starts the holder in the background and becomes `sleep`, which never waits for its children.
  const wrapper = Bun.spawn(["sh", "-c", `"$0" "$1" "$2" & exec sleep 60`, process.execPath, HOLDER, path], { stdout: "pipe", stderr: "inherit" });
  try {
    const pid = await lockedPid(wrapper.stdout);
    process.kill(pid, "SIGKILL");
    for (let i = 0; i < 100 && processState(pid) !== "Z"; i++) await Bun.sleep(20);
    expect(processState(pid)).toBe("Z");
    const lock = await acquireLock(path);
    lock.release();
  } finally {
    wrapper.kill("SIGKILL");
    await wrapper.exited;
  }
}, 60_000);
