/**
 * The published build (dist, ESM and CJS) under plain Node 20: resolve `@timbre/sdk` by name,
 * construct a client, make one real request, and round-trip a webhook signature (Web Crypto on Node).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ok, type RecordingServer, startRecordingServer } from "./support/recording-server.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
let server: RecordingServer;

beforeAll(() => {
  if (!["index.js", "index.cjs", "csv.js", "csv.cjs"].every((file) => existsSync(`${packageDir}dist/${file}`))) {
    const build = spawnSync("npm", ["run", "build"], { cwd: packageDir, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }
  server = startRecordingServer(() => ok({ status: "ok", version: "test", uptime_s: 1, checks: { database: "ok" } }));
}, 120_000);
afterAll(() => server.stop());

const program = (load: string) => `
${load}
const client = new Timbre({ baseUrl: process.argv[1], apiKey: "sk_test_dist" });
const secret = "whsec_" + Buffer.from("a".repeat(32)).toString("base64");
const body = JSON.stringify({ id: "evt_1", event: "dte.status_changed" });
(async () => {
  const health = await client.health();
  const headers = await webhooks.headers({ id: "evt_1", timestamp: new Date(), body, secret });
  const event = await webhooks.verify(body, headers, secret);
  const kinds = [typeof Timbre, new ValidationError({ code: "X", message: "m" }) instanceof TimbreError];
  console.log(JSON.stringify({ status: health.status, event: event.id, kinds }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** Async spawn: the loopback server lives in this process and must keep answering meanwhile. */
async function runNode(args: string[]) {
  const child = Bun.spawn(["node", ...args], { cwd: repoRoot, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`node failed (${code}):\n${stderr}`);
  return JSON.parse(stdout.trim()) as { status: string; event: string; kinds: unknown[] };
}

test("node is version 20 or later", () => {
  const version = spawnSync("node", ["--version"], { encoding: "utf8" }).stdout.trim();
  expect(Number(version.slice(1).split(".")[0])).toBeGreaterThanOrEqual(20);
});

test("ESM build under node", async () => {
  const code = program(`import { Timbre, webhooks, ValidationError, TimbreError } from "@timbre/sdk";`);
  const out = await runNode(["--input-type=module", "-e", code, server.baseUrl]);
  expect(out).toEqual({ status: "ok", event: "evt_1", kinds: ["function", true] });
  expect(server.requests.at(-1)?.headers.get("x-api-key")).toBe("sk_test_dist");
  expect(server.requests.at(-1)?.headers.get("user-agent")).toMatch(/^timbre-sdk-js\//);
});

test("CJS build under node (ky inlined, no require of ESM)", async () => {
  const code = program(`const { Timbre, webhooks, ValidationError, TimbreError } = require("@timbre/sdk");`);
  const out = await runNode(["--input-type=commonjs", "--no-experimental-require-module", "-e", code, server.baseUrl]);
  expect(out).toEqual({ status: "ok", event: "evt_1", kinds: ["function", true] });
});

test("@timbre/sdk/csv under node, ESM and CJS: a Windows-1252 sheet read into a request", () => {
  const bytes = "Buffer.from('tipo;rut;razon_social;nombre;cantidad;precio\\n39;66666666-6;CF;Caf\\u00e9;2,5;12.990\\n', 'latin1')";
  const body = `const s = readEmissionSheet(${bytes}); console.log(JSON.stringify(s.documents[0].params.items[0]));`;
  for (const [type, load] of [
    ["module", `import { readEmissionSheet } from "@timbre/sdk/csv";`],
    ["commonjs", `const { readEmissionSheet } = require("@timbre/sdk/csv");`],
  ] as const) {
    const run = spawnSync("node", [`--input-type=${type}`, "-e", `${load}\n${body}`], { cwd: repoRoot, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ nombre: "Café", cantidad: 2.5, precio: 12990 });
  }
});
