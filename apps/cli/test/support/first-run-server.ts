/** The real server as a child process on its first run: a sandbox account with its certificate, CAFs and API key. */
import { type ServerProcess, startServerProcess } from "../../../../packages/sdk/test/support/server-process.js";

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
