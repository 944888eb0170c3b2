/**
 * Which SII each environment talks to (API.md §9) and the CAF authorities it trusts:
 * - `test`: the sandbox SII when `SII_MODE=sandbox` (in this process on a thread of its own, served over real HTTP
 *   on a loopback port, or an external one at `SII_SANDBOX_URL`), otherwise the SII's certification hosts; CAFs signed by IDK 100 (and the
 *   sandbox authority in sandbox mode);
 * - `live`: the SII's production hosts, CAFs signed by IDK 300; refused in sandbox mode.
 * Clients are cached per business certificate so SII tokens are reused.
 */
import type { AuthorityKey } from "@timbre/core/caf";
import { SiiClient, createSandbox, type Sandbox, type SiiIdentity, type SiiResultMail } from "@timbre/sii";
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Environment } from "../db/api-keys.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { readSiiAuthorities } from "./authority-keys.js";
import type { StoredAuthority } from "./sandbox-authority.js";
import { startSandboxThread, type SandboxThread } from "./sandbox-thread.js";

export type SiiBackend = "sandbox" | "certificacion" | "produccion";

export interface SiiGateway {
  backend(environment: Environment): SiiBackend | null;
  authorities(environment: Environment): AuthorityKey[];
  /** A client acting with the given certificate (cached by `cacheKey`, e.g. the certificate fingerprint). */
  client(environment: Environment, identity: SiiIdentity, cacheKey: string): SiiClient;
  /**
   * The in-process sandbox when it runs on this thread (`sandboxOnThisThread`: tests that program its faults or read
   * what it received); `null` when it runs on its own thread (the default) or elsewhere.
   */
  sandbox: Sandbox | null;
  /** Where the sandbox SII answers (sandbox mode): the in-process one's loopback URL, or `SII_SANDBOX_URL`. */
  sandboxUrl: string | null;
  /** The sandbox authority (sandbox mode), which signs sandbox CAFs. */
  sandboxAuthority: StoredAuthority | null;
  close(): Promise<void>;
}

/** How long one SII request may take before the client gives up: the emission budget less a margin for the rest. */
export function siiRequestMs(config: Pick<Config, "emitBudgetMs">): number {
  return Math.max(1000, config.emitBudgetMs - 500);
}

/** The journal of the sandbox whose CAF authority is `authority`, in `dir`. */
function sandboxStateFile(dir: string, authority: StoredAuthority): string {
  const der = authority.publicKey.export({ type: "spki", format: "der" });
  return join(dir, `sii-sandbox-${createHash("sha256").update(der).digest("hex").slice(0, 16)}.jsonl`);
}

export async function createSiiGateway(options: {
  config: Config;
  log: Logger;
  sandboxAuthority: StoredAuthority | null;
  /** Requests to the SII give up after this long (the emission budget leaves room for one attempt). */
  requestMs?: number;
  /**
   * Folder of the in-process sandbox's journal (what it received, kept across restarts); default memory only. One
   * file per sandbox authority, which lives in the database: a new database starts a sandbox that knows nothing.
   */
  sandboxStateDir?: string | undefined;
  /**
   * Runs the in-process sandbox on this thread and exposes it as `sandbox` (tests that inject faults or inspect it).
   * Default: its own thread, so that its work never delays this one's event loop.
   */
  sandboxOnThisThread?: boolean;
  /**
   * Where the in-process sandbox's result mails (`RESULTADO_ENVIO`, one per reviewed envelope) go; default nowhere.
   * `app.ts` mails them through Timbre's own SMTP receiver to the issuer's intercambio address (`intercambio/sii-result-mail.ts`).
   */
  resultMail?: ((mail: SiiResultMail) => Promise<void>) | undefined;
}): Promise<SiiGateway> {
  const { config } = options;
  // Both keys or none: the process checked them at start (`required-files.ts`); a folder emptied since throws here.
  const sii = readSiiAuthorities(config.siiCertsDir);
  const sandboxMode = config.siiMode === "sandbox";
  const authority = sandboxMode ? options.sandboxAuthority : null;
  let sandbox: Sandbox | null = null;
  let server: ReturnType<typeof Bun.serve> | null = null;
  let thread: SandboxThread | null = null;
  let sandboxUrl = config.siiSandboxUrl;
  if (sandboxMode && !sandboxUrl) {
    if (!authority) throw new Error("sandbox mode needs the sandbox authority key");
    const stateFile = options.sandboxStateDir ? sandboxStateFile(options.sandboxStateDir, authority) : null;
    if (options.sandboxOnThisThread) {
      const resultMail = options.resultMail;
      sandbox = createSandbox({ authority, stepMs: config.siiSandboxStepMs, ...(stateFile ? { stateFile } : {}), ...(resultMail ? { resultMail: { send: resultMail } } : {}) });
      server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: sandbox.handler, idleTimeout: 120 });
      sandboxUrl = `http://127.0.0.1:${server.port}`;
    } else {
      thread = await startSandboxThread({ authority, stepMs: config.siiSandboxStepMs, stateFile, resultMail: options.resultMail });
      sandboxUrl = thread.url;
    }
  }
  const requestMs = options.requestMs ?? siiRequestMs(config);
  const clients = new Map<string, SiiClient>();

  const backend = (environment: Environment): SiiBackend | null => {
    if (environment === "test") return sandboxMode ? "sandbox" : "certificacion";
    return sandboxMode ? null : "produccion";
  };

  return {
    backend,
    authorities(environment) {
      const list: AuthorityKey[] = [];
      const official = sii.get(environment === "test" ? 100 : 300);
      if (official) list.push(official);
      if (environment === "test" && authority) list.push({ idk: authority.idk, publicKey: authority.publicKey });
      return list;
    },
    client(environment, identity, cacheKey) {
      const kind = backend(environment);
      if (!kind) throw new Error(`no SII backend for ${environment} in ${config.siiMode} mode`);
      const key = `${environment}:${cacheKey}`;
      let client = clients.get(key);
      if (!client) {
        client = new SiiClient({
          environment: kind === "sandbox" ? { baseUrl: sandboxUrl as string } : kind,
          identity,
          timeouts: { requestMs },
        });
        clients.set(key, client);
      }
      return client;
    },
    sandbox,
    sandboxUrl: sandboxMode ? (sandboxUrl ?? null) : null,
    sandboxAuthority: authority,
    async close() {
      sandbox?.close();
      await server?.stop(true);
      await thread?.stop();
    },
  };
}
