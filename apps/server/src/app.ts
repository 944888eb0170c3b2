/**
 * The HTTP application: pipeline (ids, limits, credentials, idempotency, errors, logs), then one Elysia
 * instance per resource. Tests call `app.handle(new Request("http://localhost/v1/…"))`.
 */
import { randomUUID } from "node:crypto";
import { Elysia } from "elysia";
import type { Config } from "./config.js";
import type { Database } from "./db/open-database.js";
import type { SiiResultMail } from "@timbre/sii";
import type { Deps } from "./deps.js";
import { JSON_LIMIT, SERVER_BODY_CAP } from "./http/body.js";
import { dashboard } from "./http/dashboard.js";
import { apiReference } from "./http/api-reference.js";
import { docsAssets } from "./http/docs-assets.js";
import { CONTRACT_DOCS } from "./contract-docs.js";
import { pipeline } from "./http/pipeline.js";
import { RequestShapes } from "./http/request-shapes.js";
import { replayEmittedDocument } from "./modules/dte/emit-document.js";
import { startLiveness } from "./liveness.js";
import { createLogger, type Logger } from "./log.js";
import { authRoutes } from "./modules/auth/routes.js";
import { businessRoutes } from "./modules/businesses/routes.js";
import { dteRoutes } from "./modules/dte/routes.js";
import { eventRoutes } from "./modules/events/routes.js";
import type { CertificateLoader } from "./modules/businesses/certificate-loader.js";
import { defaultCertificateLoader } from "./modules/businesses/default-certificate-loader.js";
import { numerationRoutes } from "./modules/numerations/routes.js";
import { issuerRoutes } from "./modules/issuers/routes.js";
import { loadIssuerLists } from "./modules/issuers/issuer-file.js";
import { receivedRoutes } from "./modules/received/routes.js";
import { sandboxNumerationRoutes } from "./modules/numerations/sandbox-routes.js";
import { tokenRoutes } from "./modules/tokens/routes.js";
import { utilityRoutes } from "./modules/utilities/routes.js";
import type { Secrets } from "./secrets.js";
import type { SiiGateway } from "./sii/gateway.js";
import { lazySiiGateway, openSiiGateway } from "./sii/open-gateway.js";
import { mailsSiiResults, sendSiiResultMail } from "./intercambio/sii-result-mail.js";
import { documentSigner } from "./signing/document-signer.js";
import { startPdfThreads } from "./pdf/pdf-threads.js";
import { startVerifyThreads } from "./verify/verify-threads.js";

export interface AppOptions {
  config: Config;
  database: Database;
  secrets: Secrets;
  log?: Logger;
  certificates?: CertificateLoader;
  now?: () => Date;
  /** Override the SII gateway (tests); default: opened lazily from the config. */
  sii?: () => Promise<SiiGateway>;
  /** Folder where the in-process sandbox SII keeps what it received across restarts (`main.ts`: the data dir); default memory. */
  sandboxStateDir?: string;
  /** Run the in-process sandbox SII on the server's thread, exposed as `gateway.sandbox` (tests); default its own thread. */
  sandboxOnThisThread?: boolean;
  /** The SII's lists of electronic issuers already loaded (`main.ts`, before anything starts); default read from the config. */
  issuers?: Deps["issuers"];
}

export function createDeps(options: AppOptions): Deps {
  // First: a malformed list throws before any thread or connection is started.
  const issuers = options.issuers ?? loadIssuerLists(options.config.issuersFile);
  const log = options.log ?? createLogger(options.config.logLevel);
  // The sandbox's result mails travel through Timbre's own SMTP receiver (`intercambio/sii-result-mail.ts`).
  const resultMail = mailsSiiResults(options) ? (mail: SiiResultMail) => sendSiiResultMail(deps, mail) : undefined;
  const gateway = lazySiiGateway(() =>
    options.sii ? options.sii() : openSiiGateway({ config: options.config, db: options.database.db, masterKey: options.secrets.masterKey, log, sandboxStateDir: options.sandboxStateDir, sandboxOnThisThread: options.sandboxOnThisThread ?? false, resultMail }),
  );
  const instanceId = randomUUID();
  const { database, config } = options;
  const liveness = startLiveness(
    database.jobStore.kind === "pglite" ? { kind: "pglite" } : { kind: "postgres", url: database.jobStore.url, sessionLocks: config.databasePrepare },
    database.db,
    instanceId,
    log,
  );
  const pdf = startPdfThreads({
    threads: config.pdfThreads,
    timeoutMs: config.pdfRenderTimeoutMs,
    perTenant: config.pdfRendersPerAccount,
    queueLimit: config.pdfQueueLimit,
  });
  const verifier = startVerifyThreads({
    threads: config.verifyThreads,
    timeoutMs: config.verifyTimeoutMs,
    perTenant: config.verifyEnvelopesPerBusiness,
    queueLimit: config.verifyQueueLimit,
  });
  const deps: Deps = {
    db: database.db,
    config,
    secrets: options.secrets,
    log,
    certificates: options.certificates ?? defaultCertificateLoader,
    now: options.now ?? (() => new Date()),
    instanceId,
    liveness,
    signer: documentSigner(config.signingThreads),
    pdf,
    issuers,
    verifier,
    sii: gateway.get,
    close: async () => {
      await pdf.close();
      await verifier.close();
      await liveness.close();
      await gateway.close();
    },
  };
  return deps;
}

export function createApp(options: AppOptions) {
  return buildApp(createDeps(options), options.database);
}

export function buildApp(deps: Deps, database: Pick<Database, "ping">) {
  // Elysia turns SO_REUSEPORT on by default: a second server started on the same port (another checkout, another
  // data directory) would then silently share it, each answering a random half of the requests. One owner per port.
  const shapes = new RequestShapes();
  const app = new Elysia({ serve: { maxRequestBodySize: SERVER_BODY_CAP, reusePort: false } })
    .use(pipeline(deps, { replayResource: (id) => replayEmittedDocument(deps, id), shapes }))
    .use(apiReference({ version: deps.config.version, description: `JSON bodies up to ${JSON_LIMIT} bytes.` }, CONTRACT_DOCS))
    .use(docsAssets())
    .use(utilityRoutes(deps, () => database.ping()))
    .use(authRoutes(deps))
    .use(tokenRoutes(deps))
    .use(businessRoutes(deps))
    .use(numerationRoutes(deps))
    .use(sandboxNumerationRoutes(deps))
    .use(dteRoutes(deps))
    .use(eventRoutes(deps))
    .use(receivedRoutes(deps))
    .use(issuerRoutes(deps))
    .use(dashboard());
  shapes.load(app.routes);
  return app;
}

export type App = ReturnType<typeof buildApp>;
