/** Starts `bun src/main.ts` as a real child process and waits for its "listening" log line. */
import { fileURLToPath } from "node:url";

const SERVER_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  /** Everything written so far to stdout and stderr. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number>;
  exited: Promise<number>;
}

/**
 * Extra `bun` flags for a child process, from an environment variable (benchmarks: e.g.
 * `TIMBRE_SERVER_BUN_FLAGS="--cpu-prof-md --cpu-prof-dir=/tmp/prof"` writes a CPU profile of each server when it stops).
 */
export const bunFlagsFrom = (variable: string): string[] => (process.env[variable] ?? "").split(/\s+/).filter(Boolean);

const extraFlags = bunFlagsFrom("TIMBRE_SERVER_BUN_FLAGS");

/**
 * The launcher `npm start` runs the server through (`scripts/with-runtime.sh`: the allocator and JIT settings), so
 * that tests and benchmarks run what users run. It `exec`s the command, so a child's pid is the Bun process's.
 */
export const WITH_RUNTIME = fileURLToPath(new URL("../../../../scripts/with-runtime.sh", import.meta.url));

export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = Bun.spawn(["sh", WITH_RUNTIME, process.execPath, ...extraFlags, "src/main.ts"], {
    cwd: SERVER_DIR,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
  };
  void pump(child.stdout);
  void pump(child.stderr);
  const deadline = Date.now() + timeoutMs;
  let port: number | null = null;
  while (port === null) {
    const match = /"msg":"listening","port":(\d+)/.exec(text);
    if (match?.[1]) port = Number(match[1]);
    else if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${text}`);
    else if (Date.now() > deadline) {
      child.kill();
      throw new Error(`server did not start in time:\n${text}`);
    } else await Bun.sleep(50);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    output: () => text,
    exited: child.exited,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return child.exited;
    },
  };
}

/** Runs `bun src/main.ts` expecting it to exit by itself (e.g. refused start). */
export async function runServerToExit(env: Record<string, string>): Promise<{ code: number; output: string }> {
  const child = Bun.spawn([process.execPath, "src/main.ts"], { cwd: SERVER_DIR, env: { ...process.env, PORT: "0", ...env }, stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  return { code, output: out + err };
}
