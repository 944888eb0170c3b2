/**
 * Starts the server: config → database (+ migrations) → secrets (checked against the database's check values) → app
 * → listen; graceful stop on SIGINT/SIGTERM.
 */
import { buildApp, createDeps } from "./app.js";
import { loadConfig } from "./config.js";
import { LockedError } from "./db/lock-file.js";
import { openDatabase, type Database } from "./db/open-database.js";
import { ensureSandboxAccount, hasSandboxAccount, sandboxBanner, startBanner } from "./first-run.js";
import { startWorkers } from "./jobs/start-workers.js";
import { startInboundSmtp } from "./intercambio/start-inbound-smtp.js";
import { createLogger, flushLogs, stdoutLine } from "./log.js";
import { loadIssuerLists } from "./modules/issuers/issuer-file.js";
import { resolveSecrets, SecretsRefused } from "./secrets/resolve-secrets.js";
import { siiFileProblems } from "./sii/required-files.js";

const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
// Without the SII's schemas or authority keys the checks they serve would be off: refuse to start instead.
const missingSiiFiles = siiFileProblems(config);
if (missingSiiFiles.length > 0) {
  for (const problem of missingSiiFiles) console.error(`timbre: ${problem}`);
  process.exit(1);
}

// The SII's list of electronic issuers (SII_ISSUERS_FILE): a malformed file is refused before anything starts.
let issuers: ReturnType<typeof loadIssuerLists>;
try {
  issuers = loadIssuerLists(config.issuersFile);
} catch (error) {
  console.error(`timbre: ${(error as Error).message}`);
  process.exit(1);
}

let database: Database;
try {
  database = await openDatabase({ databaseUrl: config.databaseUrl, prepare: config.databasePrepare, dataDir: config.dataDir });
} catch (error) {
  if (error instanceof LockedError) {
    flushLogs();
    console.error(`timbre: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

// The secrets are checked against the database's check values before anything reads or seals data (API.md §14).
let resolved: Awaited<ReturnType<typeof resolveSecrets>>;
try {
  resolved = await resolveSecrets(config, database.db);
} catch (error) {
  await database.close();
  if (error instanceof SecretsRefused) {
    flushLogs();
    console.error(`timbre: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
const { secrets } = resolved;
const sharedNote = (setting: string) => `every other process on this database needs the same value: start them with ${setting} set to this file's content`;
for (const { setting, path } of resolved.generated) {
  log.warn("generated a new secret (mode 0600; its value is never printed)", { setting, path, note: database.driver === "postgres" ? sharedNote(setting) : `set ${setting} to provide your own` });
}
if (database.driver === "postgres") {
  for (const { setting, path } of resolved.adopted) log.warn("this database's secret is now the one in the data directory's file", { setting, path, note: sharedNote(setting) });
}

// The in-process sandbox SII remembers what it received across restarts, as the SII does (beside the embedded data).
const deps = createDeps({ config, database, secrets, log, sandboxStateDir: config.dataDir, issuers });
const app = buildApp(deps, database);
// The PDF and verification threads load their libraries now, so that the first render or import does not wait for it.
deps.pdf.warm();
deps.verifier.warm();
// The port first: a first run's account (its key and password are printed once) is made only once it can be used.
try {
  app.listen({ port: config.port, hostname: config.host });
} catch (error) {
  if ((error as { code?: string }).code === "EADDRINUSE") {
    flushLogs();
    console.error(`timbre: port ${config.port} is already in use on ${config.host} (another Timbre server?) — stop it, or start this one with PORT=<another port>`);
    await database.close();
    process.exit(1);
  }
  throw error;
}
const firstRun = database.driver === "pglite" ? await ensureSandboxAccount(deps) : null;

const workers = config.workers ? await startWorkers(deps, database.jobStore) : null;
// Timbre's own intercambio mail receiver (API.md §12 door 2), when SMTP_INBOUND_PORT is set.
const smtpReceiver = config.mail.inboundPort === null ? null : await startInboundSmtp(deps, config.mail.inboundPort);
const port = app.server?.port ?? config.port;
log.info("listening", { port, host: config.host, driver: database.driver, sii_mode: config.siiMode, pid: process.pid });
// Through the log's own queue, so the banner follows the lines logged before it.
if (firstRun) stdoutLine(sandboxBanner(firstRun, port));
stdoutLine(startBanner(port, firstRun, !firstRun && database.driver === "pglite" && (await hasSandboxAccount(deps))));

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info("stopping", { signal });
  try {
    await app.stop();
  } catch {
    /* already stopped */
  }
  await workers?.stop();
  await smtpReceiver?.close();
  await deps.close();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
