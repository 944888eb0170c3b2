#!/usr/bin/env bun
/**
 * Runs the SII sandbox standalone: `bun src/sandbox/serve.ts --port 4040 [--host 127.0.0.1] [--step-ms 1000]`.
 * Prints the base URL and the authority's IDK and public key (PEM) so a server can trust the sandbox's CAFs.
 */
import { createSandbox } from "./sandbox.js";

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

const sandbox = createSandbox({ stepMs: Number(arg("step-ms", "1000")), idk: Number(arg("idk", "9999")) });
const server = Bun.serve({ port: Number(arg("port", "4040")), hostname: arg("host", "127.0.0.1"), fetch: sandbox.handler, idleTimeout: 255 });
console.log(`SII sandbox on http://${server.hostname}:${server.port} (IDK ${sandbox.authority.idk})`);
console.log(sandbox.authority.publicKey.export({ type: "spki", format: "pem" }).toString());
const stop = () => {
  sandbox.close();
  void server.stop(true);
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
