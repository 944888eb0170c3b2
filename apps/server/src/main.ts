/** Starts the server: config → secrets → database (+ migrations) → app → listen; graceful stop on SIGINT/SIGTERM. */
import { buildApp, createDeps } from "./app.js";
import { loadConfig } from "./config.js";
import { LockedError } from "./db/lock-file.js";
import { openDatabase, type Database } from "./db/open-database.js";
import { ensureSandboxAccount, sandboxBanner, startBanner } from "./first-run.js";
import { startWorkers } from "./jobs/start-workers.js";
import { createLogger, flushLogs, stdoutLine } from "./log.js";
import { loadSecrets } from "./secrets.js";

const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
const { secrets, notice } = loadSecrets(config);
for (const path of notice.generated) log.warn("generated a new secret (set TIMBRE_MASTER_KEY / TIMBRE_JWT_SECRET to provide your own)", { path });

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

// The in-process sandbox SII remembers what it received across restarts, as the SII does (beside the embedded data).
const deps = createDeps({ config, database, secrets, log, sandboxStateDir: config.dataDir });
const app = buildApp(deps, database);
// The port first: a first run's account (its key and password are printed once) is made only once it can be used.
try {
  app.listen({ port: config.port });
} catch (error) {
  if ((error as { code?: string }).code === "EADDRINUSE") {
    flushLogs();
    console.error(`timbre: port ${config.port} is already in use (another Timbre server?) — stop it, or start this one with PORT=<another port>`);
    await database.close();
    process.exit(1);
  }
  throw error;
}
const firstRun = database.driver === "pglite" ? await ensureSandboxAccount(deps) : null;

const workers = config.workers ? await startWorkers(deps, database.jobStore) : null;
const port = app.server?.port ?? config.port;
log.info("listening", { port, driver: database.driver, sii_mode: config.siiMode, pid: process.pid });
// Through the log's own queue, so the banner follows the lines logged before it.
if (firstRun) stdoutLine(sandboxBanner(firstRun, port));
stdoutLine(startBanner(port, firstRun));

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
  await deps.close();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
