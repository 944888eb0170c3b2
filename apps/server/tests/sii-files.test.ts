/**
 * The SII's files in real server processes: with nothing set, `src/main.ts` starts on the copies bundled in
 * `@timbre/sii-data` without a warning; pointed at an empty folder, it refuses to start naming the setting.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runServerToExit, startServer } from "./support/server-process.js";

const scratch: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** An embedded server in a fresh data directory, in sandbox mode (the default), with the settings given. */
const embedded = (env: Record<string, string>) => ({ DATABASE_URL: "", TIMBRE_DATA_DIR: tempDir("timbre-data-"), SII_MODE: "sandbox", ...env });

test("TIMBRE_SII_SCHEMAS at an empty folder: the server exits 1, stderr names the setting", async () => {
  const { code, output } = await runServerToExit(embedded({ TIMBRE_SII_SCHEMAS: tempDir("timbre-no-schemas-") }));
  expect(code).toBe(1);
  expect(output).toContain("timbre: SII schemas not found");
  expect(output).toContain("TIMBRE_SII_SCHEMAS");
  expect(output).not.toContain('"msg":"listening"');
}, 60_000);

test("TIMBRE_SII_CERTS_DIR at an empty folder: the server exits 1, stderr names the setting", async () => {
  const { code, output } = await runServerToExit(embedded({ TIMBRE_SII_CERTS_DIR: tempDir("timbre-no-certs-") }));
  expect(code).toBe(1);
  expect(output).toContain("timbre: SII authority keys not found");
  expect(output).toContain("TIMBRE_SII_CERTS_DIR");
  expect(output).not.toContain('"msg":"listening"');
}, 60_000);

test("nothing set: the server starts on the bundled files, and says nothing is missing", async () => {
  const server = await startServer(embedded({}), 90_000);
  try {
    expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    expect(server.output()).not.toMatch(/not found|missing|not XSD-validated/i);
  } finally {
    expect(await server.stop()).toBe(0);
  }
}, 120_000);
