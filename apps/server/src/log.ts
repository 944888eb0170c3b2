/** Structured JSON logs, one object per line. Never pass bodies, headers or secrets. */
import type { LogLevel } from "./config.js";

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stdout.write(l + "\n")): Logger {
  const emit = (lvl: Exclude<LogLevel, "silent">, msg: string, fields?: LogFields) => {
    if (RANK[lvl] < RANK[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

/** The message of a thrown value, for a log field or a stored detail (anything may be thrown). */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
