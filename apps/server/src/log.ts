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

/**
 * The message of a thrown value, for a log field or a stored detail (anything may be thrown), without the data it
 * may carry: a failed query's text and parameters (drizzle's "Failed query: … params: …") are dropped, and the
 * database's own message keeps its SQLSTATE and the names of the constraint, table and column but not the quoted
 * values it echoes (`invalid input syntax for type integer: "…"`).
 */
export function errorMessage(error: unknown): string {
  const failedQuery = error instanceof Error && error.message.startsWith("Failed query:");
  const database = failedQuery ? databaseErrorOf(error) : isDatabaseError(error) ? error : undefined;
  if (database) {
    const names = (["constraint", "constraint_name", "table", "table_name", "column", "column_name"] as const)
      .map((k) => database[k])
      .filter((v): v is string => typeof v === "string" && v !== "");
    const text = typeof database.message === "string" ? redactValues(database.message) : "";
    return `database error ${database.code}: ${text}${names.length > 0 ? ` (${[...new Set(names)].join(", ")})` : ""}`;
  }
  if (failedQuery) {
    // No SQLSTATE: a connection-level failure (refused, reset, timeout) whose cause names no data.
    const cause = error.cause instanceof Error ? error.cause : undefined;
    const code = cause && "code" in cause && typeof cause.code === "string" ? `${cause.code}: ` : "";
    return `database query failed: ${code}${cause ? redactValues(cause.message) : "no cause"}`;
  }
  return error instanceof Error ? error.message : String(error);
}

type DatabaseError = { code: string; message?: unknown } & Partial<Record<"constraint" | "constraint_name" | "table" | "table_name" | "column" | "column_name", unknown>>;

/** The driver's error (postgres.js `PostgresError`, PGlite `DatabaseError`) in a cause chain: it has a SQLSTATE. */
function databaseErrorOf(error: unknown): DatabaseError | undefined {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 4; depth++) {
    if (isDatabaseError(e)) return e;
    e = "cause" in e ? e.cause : undefined;
  }
  return undefined;
}

const isDatabaseError = (e: unknown): e is DatabaseError =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code);

/** Quoted text in a database message is a value or a name; names are logged from the error's own fields. */
const redactValues = (text: string): string => text.replace(/"[^"]*"/g, '"…"').replace(/\n[\s\S]*$/, "");
