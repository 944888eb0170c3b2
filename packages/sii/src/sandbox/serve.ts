#!/usr/bin/env bun
/**
 * Runs the SII sandbox standalone: `bun src/sandbox/serve.ts --port 4040 [--host 127.0.0.1] [--step-ms 1000]
 * [--trust-pem authority.pem [--trust-idk 9999]] [--xsd auto|off] [--cross-check on|off] [--state sandbox.jsonl]`.
 * `--state` keeps what the sandbox received (documents, TRACKIDs, receivers' events) in that file across restarts. Prints the base URL and the authority's IDK and
 * public key (PEM) so a server can trust the sandbox's CAFs; `--trust-pem` makes the sandbox trust CAFs signed by
 * another authority (e.g. a Timbre server's own sandbox authority, kept in its database).
 */
import { createSandbox } from "./sandbox.js";
import { parseServeArgs } from "./serve-args.js";

const options = parseServeArgs(process.argv.slice(2));
let sandbox: ReturnType<typeof createSandbox>;
try {
  sandbox = createSandbox({ stepMs: options.stepMs, idk: options.idk, trustedAuthorities: options.trusted, xsd: options.xsd, crossCheck: options.crossCheck, environment: options.environment, ...(options.stateFile ? { stateFile: options.stateFile } : {}) });
} catch (error) {
  // E.g. the SII's schemas are missing: refuse to start, with the message naming the setting.
  console.error(`timbre-sii-sandbox: ${(error as Error).message}`);
  process.exit(1);
}
const server = Bun.serve({ port: options.port, hostname: options.host, fetch: sandbox.handler, idleTimeout: 255 });
console.log(`SII sandbox on http://${server.hostname}:${server.port} (IDK ${sandbox.authority.idk})`);
if (options.stateFile) console.log(`keeping its state in ${options.stateFile} (${sandbox.documents().length} documents remembered)`);
if (options.trusted.length > 0) console.log(`trusting CAF authorities ${options.trusted.map((a) => a.idk).join(", ")}`);
console.log(sandbox.authority.publicKey.export({ type: "spki", format: "pem" }).toString());
const stop = () => {
  sandbox.close();
  void server.stop(true);
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
