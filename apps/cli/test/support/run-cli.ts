/** Runs the built CLI as a child process (node or bun) with an isolated config directory. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const cliDir = fileURLToPath(new URL("../..", import.meta.url));
const sdkDir = fileURLToPath(new URL("../../../../packages/sdk", import.meta.url));
const bin = join(cliDir, "bin/run.js");

export type Runtime = "node" | "bun";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not). */
  json: unknown;
}

/** Builds the SDK and CLI bundles when missing (turbo builds them before `test` in CI). */
export function ensureBuilt(): void {
  for (const [dir, output] of [[sdkDir, "dist/csv.js"], [cliDir, "dist/index.js"]] as const) {
    if (existsSync(join(dir, output))) continue;
    const build = spawnSync("npm", ["run", "build"], { cwd: dir, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`build of ${dir} failed:\n${build.stdout}\n${build.stderr}`);
  }
}

const homes: string[] = [];

/**
 * Removes every home `freshHome` made (they hold saved credentials of throw-away test accounts). Each test file
 * calls it in its own `afterAll`: this module is loaded once for all the files of a run.
 */
export function removeFreshHomes(): void {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
}

/** A fresh, empty HOME/XDG_CONFIG_HOME (see `removeFreshHomes`). */
export function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), "timbre-cli-"));
  homes.push(home);
  return home;
}

/** The bun binary running these tests (so `bun` works even when it is not on PATH). */
const bunBinary = process.execPath;

export async function runCli(
  args: string[],
  { runtime = "node", home, env = {}, cwd = cliDir }: { runtime?: Runtime; home: string; env?: Record<string, string>; cwd?: string },
): Promise<CliResult> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TIMBRE_")));
  const child = Bun.spawn([runtime === "node" ? "node" : bunBinary, bin, ...args], {
    cwd,
    env: { ...clean, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  // decoded keeping a byte-order mark (Response.text() would drop it): stdout as written
  const text = async (stream: ReadableStream<Uint8Array>) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
  const [stdout, stderr, code] = await Promise.all([text(child.stdout), text(child.stderr), child.exited]);
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

/**
 * Runs the CLI (node) with a pseudo-terminal as its stdin, stdout and stderr, through script(1): what a user at a
 * terminal sees. `output` is everything the terminal showed.
 */
export async function runInTerminal(
  args: string[],
  { home, env = {}, cwd = cliDir }: { home: string; env?: Record<string, string>; cwd?: string },
): Promise<{ code: number; output: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TIMBRE_")));
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const command = ["node", bin, ...args].map(quote).join(" ");
  const child = Bun.spawn(["script", "-qec", command, "/dev/null"], {
    cwd,
    env: { ...clean, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const [output, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return { code, output };
}
