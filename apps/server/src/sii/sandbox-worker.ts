/**
 * The thread of the in-process sandbox SII (`sandbox-thread.ts` starts it): the sandbox and its HTTP server on a
 * loopback port, so its XML parsing, signature and XSD checks never run on the server's thread.
 * It checks signatures with core's verifier only (`crossCheck: "off"`): the second, independent check with
 * xml-crypto costs several times the rest of the sandbox's work per envelope and would make `npm start` a slow SII;
 * the test suites' sandboxes keep it on, and the standalone sandbox (`SII_SANDBOX_URL`) runs it by default.
 * Messages in: `{ start }` once, then `{ stop }`; out: `{ port }` (or `{ error }`), then `{ stopped }`; and, when
 * started with `resultMail`, a `{ result_mail }` per reviewed envelope, which the server's thread addresses and sends.
 */
import { createSandbox, type SiiResultMail } from "@timbre/sii";
import { createPrivateKey, createPublicKey } from "node:crypto";
import type { SandboxThreadMail, SandboxThreadMessage, SandboxThreadStart } from "./sandbox-thread.js";

declare const self: { onmessage: ((event: MessageEvent<SandboxThreadMessage>) => void) | null; postMessage(message: unknown): void };

let stop: (() => Promise<void>) | null = null;

self.onmessage = (event) => {
  const message = event.data;
  if (message.kind === "start") start(message);
  else void stop?.().then(() => self.postMessage({ kind: "stopped" }));
};

function start(options: SandboxThreadStart): void {
  try {
    const privateKey = createPrivateKey(options.authorityPem);
    const sandbox = createSandbox({
      authority: { idk: options.idk, privateKey, publicKey: createPublicKey(privateKey) },
      stepMs: options.stepMs,
      crossCheck: "off",
      ...(options.stateFile ? { stateFile: options.stateFile } : {}),
      ...(options.resultMail ? { resultMail: { send: (mail: SiiResultMail) => self.postMessage({ kind: "result_mail", mail } satisfies SandboxThreadMail) } } : {}),
    });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: sandbox.handler, idleTimeout: 120 });
    stop = async () => {
      sandbox.close();
      await server.stop(true);
    };
    self.postMessage({ kind: "listening", port: server.port });
  } catch (error) {
    self.postMessage({ kind: "error", message: (error as Error).message });
  }
}
