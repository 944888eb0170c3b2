/**
 * Starts the real Timbre server (apps/server) in this process on a loopback port, with an in-memory
 * database, for end-to-end tests of the SDK and the CLI. The server is loaded by dynamic import from a
 * computed path so the SDK never depends on it at compile time; when it is not there yet the caller
 * gets a reason to print and skip.
 */

export interface RealServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /**
   * Whether a route exists: an unauthenticated request answers 404 `NOT_FOUND` only for an unknown route
   * (known routes answer 401, 422, 200 …).
   */
  hasRoute(method: string, path: string): Promise<boolean>;
  /** The sandbox authority that signs sandbox CAFs (for uploading a CAF issued with core `issueCaf`). */
  sandboxAuthority(): Promise<{ idk: number; privateKey: import("node:crypto").KeyObject } | null>;
  stop(): Promise<void>;
}

type Loaded = Record<string, unknown>;

const serverSrc = new URL("../../../../apps/server/src/", import.meta.url);

async function load(file: string): Promise<Loaded | undefined> {
  try {
    return (await import(new URL(file, serverSrc).href)) as Loaded;
  } catch (error) {
    if (process.env.TIMBRE_E2E_DEBUG) console.error(error);
    return undefined;
  }
}

function randomBase64(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64");
}

/** The server, or the reason it cannot be started (printed by the caller, whose tests then skip). */
export async function startRealServer(env: Record<string, string> = {}): Promise<RealServer | { unavailable: string }> {
  const [appModule, configModule, dbModule] = await Promise.all([load("app.ts"), load("config.ts"), load("db/open-database.ts")]);
  const createDeps = appModule?.["createDeps"];
  const buildApp = appModule?.["buildApp"];
  const workersModule = await load("jobs/start-workers.ts");
  const startWorkers = workersModule?.["startWorkers"];
  const loadConfig = configModule?.["loadConfig"];
  const openDatabase = dbModule?.["openDatabase"];
  if (typeof createDeps !== "function" || typeof buildApp !== "function" || typeof startWorkers !== "function" || typeof loadConfig !== "function" || typeof openDatabase !== "function") {
    return { unavailable: "apps/server/src has no createDeps/buildApp/startWorkers/loadConfig/openDatabase yet" };
  }
  const masterKey = randomBase64(32);
  const jwtSecret = randomBase64(32);
  const config = loadConfig({
    RATE_LIMIT_PER_MINUTE: "100000",
    LOG_LEVEL: "silent",
    SII_MODE: "sandbox",
    SII_SANDBOX_STEP_MS: "0",
    TIMBRE_MASTER_KEY: masterKey,
    TIMBRE_JWT_SECRET: jwtSecret,
    TIMBRE_DATA_DIR: "/nonexistent-timbre-sdk-test",
    ...env,
  }) as { dataDir: string };
  const database = (await openDatabase({ databaseUrl: null, dataDir: config.dataDir, memory: true })) as { jobStore: unknown; close(): Promise<void> };
  type Deps = { sii(): Promise<{ sandboxAuthority: { idk: number; privateKey: import("node:crypto").KeyObject } | null }>; close(): Promise<void> };
  const deps = createDeps({
    config,
    database,
    secrets: { masterKey: Buffer.from(masterKey, "base64"), jwtSecret: new TextEncoder().encode(jwtSecret) },
  }) as Deps;
  const app = buildApp(deps, database) as { handle(request: Request): Promise<Response> };
  // Background workers (dispatch to the sandbox SII, status polls, webhook deliveries), as `main.ts` runs them.
  const workers = (await startWorkers(deps, database.jobStore)) as { stop(): Promise<void> };
  // Timbre's own SMTP receiver on loopback when the test asks for one (`SMTP_INBOUND_PORT`), as `main.ts` starts it.
  const smtpModule = env.SMTP_INBOUND_PORT ? await load("intercambio/smtp-receiver.ts") : undefined;
  const startSmtp = smtpModule?.["startSmtpReceiver"] as ((deps: unknown, options: { port: number }) => Promise<{ close(): Promise<void> }>) | undefined;
  const smtp = startSmtp ? await startSmtp(deps, { port: Number(env.SMTP_INBOUND_PORT) }) : null;
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => app.handle(request) });
  const baseUrl = `http://127.0.0.1:${server.port}/v1`;
  return {
    baseUrl,
    async hasRoute(method, path) {
      const response = await fetch(`${baseUrl}/${path.replace(/^\//, "")}`, {
        method,
        ...(method === "GET" || method === "DELETE" ? {} : { headers: { "content-type": "application/json" }, body: "{}" }),
      });
      const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
      return !(response.status === 404 && body?.error?.code === "NOT_FOUND");
    },
    async sandboxAuthority() {
      return (await deps.sii()).sandboxAuthority;
    },
    async stop() {
      await server.stop(true);
      await smtp?.close();
      await workers.stop();
      await deps.close();
      await database.close();
    },
  };
}
