/** The real server as a child process on its first run: a sandbox account with its certificate, CAFs and API key. */
import { afterAll, beforeAll } from "bun:test";
import { type ServerProcess, startServerProcess } from "../../../../packages/sdk/test/support/server-process.js";
import { ensureBuilt } from "./run-cli.js";

export interface FirstRunServer {
  server: ServerProcess;
  /** `TIMBRE_API_KEY` (the first-run key, printed once) and `TIMBRE_API_URL` for the CLI. */
  env: Record<string, string>;
}

export async function startFirstRunServer(): Promise<FirstRunServer> {
  const server = await startServerProcess();
  for (let i = 0; i < 100 && !/sk_test_\w+/.test(server.output()); i++) await Bun.sleep(50);
  const key = /sk_test_\w+/.exec(server.output())?.[0];
  if (!key) {
    await server.stop();
    throw new Error(`no first-run API key in the server's output:\n${server.output()}`);
  }
  return { server, env: { TIMBRE_API_KEY: key, TIMBRE_API_URL: server.baseUrl } };
}

/** One first-run server for the calling test file: built CLI, started before its tests, stopped after. */
export function useFirstRunServer(): FirstRunServer {
  const state = { env: {} } as FirstRunServer;
  beforeAll(async () => {
    ensureBuilt();
    Object.assign(state, await startFirstRunServer());
  }, 120_000);
  afterAll(() => state.server?.stop());
  return state;
}
