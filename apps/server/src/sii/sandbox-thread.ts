/**
 * Runs the in-process sandbox SII (sandbox mode without `SII_SANDBOX_URL`, what `npm start` does) on a thread of
 * its own, serving real HTTP on a loopback port: the server talks to it as to the SII, and the sandbox's work
 * (parsing envelopes, checking signatures, XSD validation) never delays the server's event loop.
 */
import type { SiiResultMail } from "@timbre/sii";
import type { StoredAuthority } from "./sandbox-authority.js";

/** What the thread is started with (keys as PEM: a message carries plain data). */
export interface SandboxThreadStart {
  kind: "start";
  idk: number;
  authorityPem: string;
  stepMs: number;
  stateFile: string | null;
  /** Whether the sandbox posts its result mails back (`{ kind: "result_mail" }`) for this thread to send. */
  resultMail: boolean;
}

export type SandboxThreadMessage = SandboxThreadStart | { kind: "stop" };

type Reply = { kind: "listening"; port: number } | { kind: "error"; message: string } | { kind: "stopped" };

/** What the sandbox thread posts besides replies: a result mail to send (the thread has no database to address it). */
export type SandboxThreadMail = { kind: "result_mail"; mail: SiiResultMail };

/** A running sandbox thread: its base URL, and `stop()` (answers in flight end, the thread ends). */
export interface SandboxThread {
  url: string;
  stop(): Promise<void>;
}

const WORKER_URL = new URL("./sandbox-worker.ts", import.meta.url);

/** Starts the sandbox on its thread; resolves once it listens (rejects with the sandbox's own error, e.g. no schemas). */
export async function startSandboxThread(options: { authority: StoredAuthority; stepMs: number; stateFile: string | null; resultMail?: ((mail: SiiResultMail) => Promise<void>) | undefined }): Promise<SandboxThread> {
  const worker = new Worker(WORKER_URL.href);
  let answer: (reply: Reply) => void = () => {};
  const resultMail = options.resultMail;
  worker.onmessage = (event: MessageEvent<Reply | SandboxThreadMail>) => {
    const data = event.data;
    if (data.kind === "result_mail") void resultMail?.(data.mail).catch(() => {});
    else answer(data);
  };
  // A thread that dies answers whoever waits (a start, a stop) instead of leaving them hanging.
  worker.onerror = (event) => answer({ kind: "error", message: event.message });
  const next = () => new Promise<Reply>((resolve) => (answer = resolve));
  const started = next();
  const start: SandboxThreadStart = {
    kind: "start",
    idk: options.authority.idk,
    authorityPem: options.authority.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    stepMs: options.stepMs,
    stateFile: options.stateFile,
    resultMail: resultMail !== undefined,
  };
  worker.postMessage(start);
  const reply = await started;
  if (reply.kind !== "listening") {
    worker.terminate();
    throw new Error(`the sandbox SII did not start: ${reply.kind === "error" ? reply.message : reply.kind}`);
  }
  let stopped: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${reply.port}`,
    stop: () =>
      (stopped ??= (async () => {
        const done = next();
        worker.postMessage({ kind: "stop" } satisfies SandboxThreadMessage);
        await done;
        worker.terminate();
      })()),
  };
}
