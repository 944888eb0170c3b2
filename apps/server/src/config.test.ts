import { expect, test } from "bun:test";
import { loadConfig, loadRotationConfig } from "./config.js";

test("defaults", () => {
  const c = loadConfig({}, "/srv");
  expect(c).toMatchObject({ port: 3000, host: "0.0.0.0", databaseUrl: null, databasePrepare: true, dataDir: "/srv/.timbre", siiMode: "sandbox", rateLimitPerMinute: 100, webhookAllowPrivate: false, trustProxy: false, logLevel: "info", acceptanceChecksPerSecond: 20 });
});

test("reads every variable; rejects malformed values by name", () => {
  expect(loadConfig({ HOST: " 127.0.0.1 " }).host).toBe("127.0.0.1");
  expect(loadConfig({ HOST: "" }).host).toBe("0.0.0.0");
  const c = loadConfig({ PORT: "0", DATABASE_URL: "postgres://x/y", DATABASE_PREPARE: "false", TIMBRE_DATA_DIR: "/d", SII_MODE: "produccion", RATE_LIMIT_PER_MINUTE: "5", WEBHOOK_ALLOW_PRIVATE: "true", LOG_LEVEL: "debug", ACCEPTANCE_CHECKS_PER_SECOND: "50" });
  expect(c).toMatchObject({ port: 0, databaseUrl: "postgres://x/y", databasePrepare: false, dataDir: "/d", siiMode: "produccion", rateLimitPerMinute: 5, webhookAllowPrivate: true, logLevel: "debug", acceptanceChecksPerSecond: 50 });
  expect(() => loadConfig({ PORT: "abc" })).toThrow("PORT");
  expect(() => loadConfig({ SII_MODE: "prod" })).toThrow("SII_MODE");
  expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: "0" })).toThrow("RATE_LIMIT_PER_MINUTE");
  expect(() => loadConfig({ ACCEPTANCE_CHECKS_PER_SECOND: "0" })).toThrow("ACCEPTANCE_CHECKS_PER_SECOND");
});

test("SIGNING_THREADS: 0 signs on the server's thread; by default at least one thread, at most four", () => {
  expect(loadConfig({ SIGNING_THREADS: "0" }).signingThreads).toBe(0);
  expect(loadConfig({ SIGNING_THREADS: "3" }).signingThreads).toBe(3);
  const byDefault = loadConfig({}).signingThreads;
  expect(byDefault).toBeGreaterThanOrEqual(1);
  expect(byDefault).toBeLessThanOrEqual(4);
  expect(() => loadConfig({ SIGNING_THREADS: "17" })).toThrow("SIGNING_THREADS");
  expect(() => loadConfig({ SIGNING_THREADS: "-1" })).toThrow("SIGNING_THREADS");
});

test("the rotation command's new secrets: given, or null when blank", () => {
  expect(loadRotationConfig({ TIMBRE_MASTER_KEY_NEW: " k ", TIMBRE_JWT_SECRET_NEW: "" })).toEqual({ newMasterKey: "k", newJwtSecret: null });
});

test("PDF threads: one core left to the server's thread by default (1–2 threads); bounds and time limit from the environment", () => {
  const defaults = loadConfig({});
  expect(defaults.pdfThreads).toBeGreaterThanOrEqual(1);
  expect(defaults.pdfThreads).toBeLessThanOrEqual(2);
  expect([defaults.pdfRendersPerAccount, defaults.pdfQueueLimit, defaults.pdfRenderTimeoutMs]).toEqual([2, 16, 30_000]);
  const set = loadConfig({ PDF_THREADS: "3", PDF_RENDERS_PER_ACCOUNT: "1", PDF_QUEUE_LIMIT: "0", PDF_RENDER_TIMEOUT_MS: "500" });
  expect([set.pdfThreads, set.pdfRendersPerAccount, set.pdfQueueLimit, set.pdfRenderTimeoutMs]).toEqual([3, 1, 0, 500]);
  expect(() => loadConfig({ PDF_THREADS: "0" })).toThrow("PDF_THREADS");
  expect(() => loadConfig({ PDF_RENDER_TIMEOUT_MS: "10" })).toThrow("PDF_RENDER_TIMEOUT_MS");
});

test("verification threads for received envelopes: 1–2 by default; bounds and time limit from the environment", () => {
  const defaults = loadConfig({});
  expect(defaults.verifyThreads).toBeGreaterThanOrEqual(1);
  expect(defaults.verifyThreads).toBeLessThanOrEqual(2);
  expect([defaults.verifyEnvelopesPerBusiness, defaults.verifyQueueLimit, defaults.verifyTimeoutMs]).toEqual([2, 16, 60_000]);
  const set = loadConfig({ VERIFY_THREADS: "3", VERIFY_ENVELOPES_PER_BUSINESS: "1", VERIFY_QUEUE_LIMIT: "0", VERIFY_TIMEOUT_MS: "500" });
  expect([set.verifyThreads, set.verifyEnvelopesPerBusiness, set.verifyQueueLimit, set.verifyTimeoutMs]).toEqual([3, 1, 0, 500]);
  expect(() => loadConfig({ VERIFY_THREADS: "0" })).toThrow("VERIFY_THREADS");
  expect(() => loadConfig({ VERIFY_TIMEOUT_MS: "10" })).toThrow("VERIFY_TIMEOUT_MS");
});
