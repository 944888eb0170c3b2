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

let pending: string[] = [];
let flushScheduled = false;

/** Writes the log lines not yet written (`stdoutLine`), at once. Also runs when the process exits. */
export function flushLogs(): void {
  if (pending.length === 0) return;
  const chunk = pending.join("");
  pending = [];
  process.stdout.write(chunk);
}
process.on("exit", flushLogs);

/**
 * A line for stdout, written with the other lines of this turn of the event loop: one write per request was a system
 * call per request, and a wake-up of whatever reads the pipe. No line waits past the current turn; `flushLogs`
 * writes them at once (before other output to stdout, say).
 */
export function stdoutLine(line: string): void {
  pending.push(line + "\n");
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(() => {
    flushScheduled = false;
    flushLogs();
  });
}

export function createLogger(level: LogLevel, write: (line: string) => void = stdoutLine): Logger {
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
