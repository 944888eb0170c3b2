/** `/health` probed from its own process (`health-prober.ts`) while the server is under load. */
import { fileURLToPath } from "node:url";
import type { ServerProcess } from "./server-process.js";

const PROBER = fileURLToPath(new URL("./health-prober.ts", import.meta.url));

/** `/v1/health` asked every 20 ms by another process until `done` settles; each answer's status and time. */
export async function probeHealth(server: ServerProcess, done: Promise<unknown>): Promise<Array<{ status: number; ms: number }>> {
  const prober = Bun.spawn([process.execPath, PROBER, server.url], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  await done.catch(() => undefined);
  prober.stdin.end();
  const out = await new Response(prober.stdout).text();
  await prober.exited;
  return JSON.parse(out) as Array<{ status: number; ms: number }>;
}
