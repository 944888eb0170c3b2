import type { SiiResultMail } from "@timbre/sii";
import type { Config } from "../config.js";
import type { Db } from "../db/open-database.js";
import type { Logger } from "../log.js";
import { createSiiGateway, type SiiGateway } from "./gateway.js";
import { loadSandboxAuthority } from "./sandbox-authority.js";

/** Opens the SII gateway of this process (the sandbox authority comes from the database in sandbox mode). */
export async function openSiiGateway(options: { config: Config; db: Db; masterKey: Buffer; log: Logger; sandboxStateDir?: string | undefined; sandboxOnThisThread?: boolean; resultMail?: ((mail: SiiResultMail) => Promise<void>) | undefined }): Promise<SiiGateway> {
  const authority = options.config.siiMode === "sandbox" ? await loadSandboxAuthority(options.db, options.masterKey) : null;
  return createSiiGateway({ config: options.config, log: options.log, sandboxAuthority: authority, sandboxStateDir: options.sandboxStateDir, sandboxOnThisThread: options.sandboxOnThisThread ?? false, resultMail: options.resultMail });
}

/** A memoised, lazily opened gateway (so building the app stays synchronous). */
export function lazySiiGateway(open: () => Promise<SiiGateway>): { get: () => Promise<SiiGateway>; close: () => Promise<void> } {
  let gateway: Promise<SiiGateway> | null = null;
  return {
    get: () => (gateway ??= open()),
    close: async () => {
      if (gateway) await (await gateway).close();
      gateway = null;
    },
  };
}
