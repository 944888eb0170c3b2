/**
 * Configuration, read once from an environment object into a typed value (STYLE rule 11).
 * `loadConfig` is pure over the object it is given, so tests pass their own.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";

export type SiiMode = "sandbox" | "certificacion" | "produccion";
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export interface Config {
  port: number;
  /** Address the API server binds (`HOST`): every interface by default; `127.0.0.1` keeps it to this machine. */
  host: string;
  databaseUrl: string | null;
  /**
   * PostgreSQL: run drizzle's queries as named prepared statements (default). Turn off behind a pooler in
   * transaction mode (PgBouncer), where a statement prepared on one server connection is missing on the next.
   */
  databasePrepare: boolean;
  dataDir: string;
  masterKey: string | null;
  jwtSecret: string | null;
  siiMode: SiiMode;
  rateLimitPerMinute: number;
  webhookAllowPrivate: boolean;
  /** Trust the left-most `X-Forwarded-For` address (only behind a proxy that sets it). */
  trustProxy: boolean;
  logLevel: LogLevel;
  version: string;
  /** An external sandbox SII (`bun packages/sii/src/sandbox/serve.ts`) shared by several processes; null: in-process. */
  siiSandboxUrl: string | null;
  /** Milliseconds between the sandbox's processing steps (REC → … → EPR). */
  siiSandboxStepMs: number;
  /** Folder with the SII's CAF authority keys `100.pub.pem` / `300.pub.pem` (null: the copy in `@timbre/sii-data`). */
  siiCertsDir: string | null;
  /** How long `POST /dte/emit` waits for the SII before answering 202 PENDIENTE. */
  emitBudgetMs: number;
  /** Run background workers (dispatcher, poller, webhooks) in this process. */
  workers: boolean;
  /** Questions to the SII's registry of acceptances and claims the acceptance worker starts per second, at most. */
  acceptanceChecksPerSecond: number;
  /**
   * Threads that timbre and sign documents beside the server's own (`signing/`); 0 signs on the server's thread.
   * Default: one per core, at most four. The server's own thread mostly waits for the database and the SII (at the
   * peak it works ≈ 0.5 ms per emission against the signing threads' 1.0–1.2), so on two cores a second signing
   * thread lets RSA use both while it waits: at a fixed 270 emissions/s p99 75–104 ms against 87–117 with one
   * fewer thread, and a peak ≈ 9 % higher (bench/RESULTS.md §6, 2026-11-27, sixth session).
   */
  signingThreads: number;
  /** Threads that render PDFs beside the server's own (`pdf/`); default one per core but one left to the server, 1–2. */
  pdfThreads: number;
  /** Time one PDF render may take on its thread before the thread is replaced and the request answered 503. */
  pdfRenderTimeoutMs: number;
  /** PDFs one business may have rendering or waiting at once; more is 429 (one tenant cannot fill the threads). */
  pdfRendersPerAccount: number;
  /** PDFs that may wait for a thread, all businesses together; more is 429. */
  pdfQueueLimit: number;
  /** Threads that verify received envelopes beside the server's own (`verify/`); default as `pdfThreads`. */
  verifyThreads: number;
  /** Time one received envelope may take to verify before its thread is replaced (upload 503, mail to the inbox). */
  verifyTimeoutMs: number;
  /** Received envelopes one business may have verifying or waiting at once; more is 429 (mail: SMTP 451). */
  verifyEnvelopesPerBusiness: number;
  /** Received envelopes that may wait for a thread, all businesses together; more is 429 (mail: SMTP 451). */
  verifyQueueLimit: number;
  /** Intercambio mail (API.md §11, §12, §14). */
  mail: MailConfig;
  /** `SII_ISSUERS_FILE`: the SII's published list of authorised electronic issuers (API.md §14); null: none loaded. */
  issuersFile: string | null;
}

/** Mail in and out (API.md §14). */
export interface MailConfig {
  /** `SMTP_URL` (`smtp://[user:password@]host:port`, `smtps://…`); null: nothing is sent (`SIN_CORREO`). */
  smtpUrl: string | null;
  /** `MAIL_FROM`: the sender of every mail Timbre sends. */
  from: string;
  /** `MAIL_TEST_ALLOWLIST`: domains the test environment may mail besides the inbound domain. */
  testAllowlist: string[];
  /** `MAIL_DAILY_LIMIT`: mails one business may send a day. */
  dailyLimit: number;
  /** `SMTP_INBOUND_PORT`: Timbre's own SMTP receiver; null: not started. */
  inboundPort: number | null;
  /** `INBOUND_DOMAIN`: the domain of the businesses' intercambio addresses. */
  inboundDomain: string;
}

export type Env = Record<string, string | undefined>;

const DEFAULT_SIGNING_THREADS = Math.min(4, Math.max(1, availableParallelism()));

const SII_MODES: readonly SiiMode[] = ["sandbox", "certificacion", "produccion"];
const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];

/** Reads the configuration; throws a plain Error naming the variable when a value is malformed. */
export function loadConfig(env: Env, cwd = "."): Config {
  return {
    port: integer(env, "PORT", 3000, 0, 65535),
    host: nonEmpty(env.HOST) ?? "0.0.0.0",
    databaseUrl: nonEmpty(env.DATABASE_URL),
    databasePrepare: env.DATABASE_PREPARE === undefined ? true : flag(env, "DATABASE_PREPARE"),
    dataDir: resolve(cwd, nonEmpty(env.TIMBRE_DATA_DIR) ?? ".timbre"),
    masterKey: nonEmpty(env.TIMBRE_MASTER_KEY),
    jwtSecret: nonEmpty(env.TIMBRE_JWT_SECRET),
    siiMode: oneOf(env, "SII_MODE", SII_MODES, "sandbox"),
    rateLimitPerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 100, 1, 1_000_000),
    webhookAllowPrivate: flag(env, "WEBHOOK_ALLOW_PRIVATE"),
    trustProxy: flag(env, "TRUST_PROXY"),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info"),
    version: nonEmpty(env.TIMBRE_VERSION) ?? "0.1.0",
    siiSandboxUrl: nonEmpty(env.SII_SANDBOX_URL),
    siiSandboxStepMs: integer(env, "SII_SANDBOX_STEP_MS", 500, 0, 600_000),
    siiCertsDir: nonEmpty(env.TIMBRE_SII_CERTS_DIR),
    emitBudgetMs: integer(env, "EMIT_BUDGET_MS", 10_000, 100, 120_000),
    workers: env.TIMBRE_WORKERS === undefined ? true : flag(env, "TIMBRE_WORKERS"),
    acceptanceChecksPerSecond: integer(env, "ACCEPTANCE_CHECKS_PER_SECOND", 20, 1, 10_000),
    signingThreads: integer(env, "SIGNING_THREADS", DEFAULT_SIGNING_THREADS, 0, 16),
    pdfThreads: integer(env, "PDF_THREADS", Math.max(1, Math.min(2, availableParallelism() - 1)), 1, 16),
    pdfRenderTimeoutMs: integer(env, "PDF_RENDER_TIMEOUT_MS", 30_000, 100, 600_000),
    pdfRendersPerAccount: integer(env, "PDF_RENDERS_PER_ACCOUNT", 2, 1, 100),
    pdfQueueLimit: integer(env, "PDF_QUEUE_LIMIT", 16, 0, 10_000),
    verifyThreads: integer(env, "VERIFY_THREADS", Math.max(1, Math.min(2, availableParallelism() - 1)), 1, 16),
    verifyTimeoutMs: integer(env, "VERIFY_TIMEOUT_MS", 60_000, 100, 600_000),
    verifyEnvelopesPerBusiness: integer(env, "VERIFY_ENVELOPES_PER_BUSINESS", 2, 1, 100),
    verifyQueueLimit: integer(env, "VERIFY_QUEUE_LIMIT", 16, 0, 10_000),
    mail: {
      smtpUrl: nonEmpty(env.SMTP_URL),
      from: nonEmpty(env.MAIL_FROM) ?? "Timbre <no-reply@timbre.localhost>",
      testAllowlist: (nonEmpty(env.MAIL_TEST_ALLOWLIST) ?? "").split(",").map((d) => d.trim().toLowerCase()).filter((d) => d !== ""),
      dailyLimit: integer(env, "MAIL_DAILY_LIMIT", 1000, 0, 10_000_000),
      inboundPort: nonEmpty(env.SMTP_INBOUND_PORT) === null ? null : integer(env, "SMTP_INBOUND_PORT", 0, 0, 65535),
      inboundDomain: (nonEmpty(env.INBOUND_DOMAIN) ?? "intercambio.timbre.localhost").toLowerCase(),
    },
    issuersFile: nonEmpty(env.SII_ISSUERS_FILE) === null ? null : resolve(cwd, nonEmpty(env.SII_ISSUERS_FILE) as string),
  };
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim() === "" ? null : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer in ${min}..${max}`);
  return n;
}

function flag(env: Env, name: string): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  return raw === "1" || raw === "true" || raw === "yes";
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined || raw === null) return fallback;
  const found = values.find((v) => v === raw);
  if (!found) throw new Error(`${name} must be one of ${values.join(", ")}`);
  return found;
}

/** The maintenance command `src/rotate-master-key.ts`: the new secrets, when given rather than generated. */
export interface RotationConfig {
  newMasterKey: string | null;
  newJwtSecret: string | null;
}

export function loadRotationConfig(env: Env): RotationConfig {
  return { newMasterKey: nonEmpty(env.TIMBRE_MASTER_KEY_NEW), newJwtSecret: nonEmpty(env.TIMBRE_JWT_SECRET_NEW) };
}
