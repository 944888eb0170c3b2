import type { Deps } from "../../deps.js";

export interface Health {
  status: "ok" | "unavailable";
  version: string;
  uptime_s: number;
  checks: { database: "ok" | "unavailable"; tax_authority: "ok" | "degraded" | "unknown" };
}

const STARTED = Date.now();
const PING_TIMEOUT_MS = 2000;

/** Database reachability (bounded wait) and what we know of the tax authority. */
export async function checkHealth(deps: Deps, ping: () => Promise<void>): Promise<Health> {
  const database = await Promise.race([
    ping().then(() => "ok" as const, () => "unavailable" as const),
    new Promise<"unavailable">((r) => setTimeout(() => r("unavailable"), PING_TIMEOUT_MS)),
  ]);
  return {
    status: database === "ok" ? "ok" : "unavailable",
    version: deps.config.version,
    uptime_s: Math.floor((Date.now() - STARTED) / 1000),
    // The sandbox runs in-process; real SII reachability is reported by the dispatcher once it exists.
    checks: { database, tax_authority: deps.config.siiMode === "sandbox" ? "ok" : "unknown" },
  };
}
