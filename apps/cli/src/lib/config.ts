/**
 * The CLI's stored settings and session: `$XDG_CONFIG_HOME/timbre/config.json` (default
 * `~/.config/timbre/config.json`), directory 0700, file 0600, written atomically.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Environment } from "@timbre/sdk";

export interface StoredSession {
  accessToken: string;
  refreshToken: string;
  /** ISO timestamp at which the access token expires. */
  expiresAt: string;
  email: string;
}

export interface StoredConfig {
  apiUrl?: string;
  apiKey?: string;
  session?: StoredSession;
  /** Default business for session credentials (`timbre businesses use`). */
  businessId?: string;
  environment?: Environment;
}

/** Directory holding config.json. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() !== "" ? env.XDG_CONFIG_HOME : join(homedir(), ".config");
  return join(base, "timbre");
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "config.json");
}

/** Reads the stored config; a missing or unreadable file is an empty config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): StoredConfig {
  try {
    const parsed: unknown = JSON.parse(readFileSync(configPath(env), "utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as StoredConfig) : {};
  } catch {
    return {};
  }
}

/** Writes the whole config with owner-only permissions. */
export function saveConfig(config: StoredConfig, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = configPath(env);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
  return path;
}

/** Applies a change to the stored config and saves it. */
export function updateConfig(change: (config: StoredConfig) => StoredConfig, env: NodeJS.ProcessEnv = process.env) {
  return saveConfig(change(loadConfig(env)), env);
}

export function removeConfig(env: NodeJS.ProcessEnv = process.env): void {
  rmSync(configPath(env), { force: true });
}
