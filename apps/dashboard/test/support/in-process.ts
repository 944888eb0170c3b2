/** The real server app in this process on an in-memory PGlite (for plugin tests that need no job runners). */
import { randomBytes } from "node:crypto";
import { buildApp, createDeps } from "../../../server/src/app.js";
import { loadConfig } from "../../../server/src/config.js";
import { openDatabase } from "../../../server/src/db/open-database.js";
import { createLogger } from "../../../server/src/log.js";

type App = ReturnType<typeof buildApp>;

export interface InProcess {
  app: App;
  close(): Promise<void>;
}

/** `mount` adds the dashboard plugin when app.ts does not mount it yet. */
export async function startInProcess(mount: (app: App) => unknown): Promise<InProcess> {
  const masterKey = randomBytes(32);
  const jwtSecret = randomBytes(32);
  const config = loadConfig({
    RATE_LIMIT_PER_MINUTE: "100000",
    TIMBRE_MASTER_KEY: masterKey.toString("base64"),
    TIMBRE_JWT_SECRET: jwtSecret.toString("base64"),
    TIMBRE_DATA_DIR: "/nonexistent-timbre-dashboard-test",
    LOG_LEVEL: "silent",
  });
  const database = await openDatabase({ databaseUrl: null, dataDir: config.dataDir, memory: true });
  const deps = createDeps({ config, database, secrets: { masterKey, jwtSecret }, log: createLogger("silent") });
  const app = buildApp(deps, database);
  if (!app.routes.some((r) => r.path.startsWith("/dashboard"))) mount(app);
  return { app, close: () => database.close() };
}
