/**
 * For the Python and PHP SDK tests: starts the real server (`bun apps/server/src/main.ts` through
 * `scripts/with-runtime.sh`, sandbox SII, PGlite in a temporary data directory, a free loopback port, private webhook
 * targets allowed) and a sandbox tenant (user, business with a test certificate, an `sk_test_` key with every
 * permission, sandbox CAFs of the given tipos); prints one JSON line `{ base_url, api_key, business_id }` and keeps
 * the server running until its stdin closes or it gets SIGTERM/SIGINT, so a test runner in any language owns its life.
 *
 * With `--exchange` the server's `SMTP_URL` is a real SMTP server on loopback (INBOUND_DOMAIN `in.timbre.test`) and a
 * second tenant, a supplier (RUT 77777777-7, CAFs 33), is set up: every `EnvioDTE` mailed is written to `mail_dir` as
 * `<recipient>-<n>.xml`, and the line gains `{ intercambio_email, mail_dir, supplier: { api_key, business_id, rut } }`,
 * so a test can have the supplier issue to the tenant and import what it was mailed.
 *
 * Run: bun scripts/sdk-sandbox-server.ts [--tipos 33,39] [--exchange]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateTestCertificate } from "@timbre/core/testing";
import { startMailCapture } from "../packages/sdk/test/support/mail-capture.js";

const mainTs = fileURLToPath(new URL("../apps/server/src/main.ts", import.meta.url));
const withRuntime = fileURLToPath(new URL("./with-runtime.sh", import.meta.url));
// Generous: on a busy shared machine the server's first start (module loading, migrations) can take a minute.
const START_TIMEOUT_MS = Number(process.env.TIMBRE_TEST_SERVER_START_MS ?? 240_000);

/** A loopback port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Over plain HTTP: a user, a business with a throwaway certificate, an `sk_test_` key with `*`, sandbox CAFs. */
async function sandboxTenant(
  baseUrl: string,
  tipos: number[],
  { rut = "76192083-9", razonSocial = "Café Austral SpA" } = {},
): Promise<{ apiKey: string; businessId: string; intercambioEmail: string }> {
  const call = async (path: string, body: unknown, auth: Record<string, string>) => {
    const response = await fetch(`${baseUrl}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { data?: Record<string, unknown> };
    if (!response.ok || !json.data) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const user = await call("auth/register", { email: `sdk-${crypto.randomUUID()}@example.com`, password: "una clave bien larga", nombre: "Ana" }, {});
  const session = { authorization: `Bearer ${String(user["access_token"])}` };
  const business = await call("businesses", {
    rut, razon_social: razonSocial, giro: "Cafetería", acteco: [561000],
    direccion: "Av. Providencia 1234", comuna: "Providencia",
  }, session);
  const businessId = String(business["id"]);
  const now = Date.now();
  const certificate = await generateTestCertificate({
    rut: "11111111-1", name: "ANA PEREZ", password: "clave",
    validFrom: new Date(now - 86_400_000), validTo: new Date(now + 365 * 86_400_000),
  });
  await call(`businesses/${businessId}/certificate`, { pfx_base64: Buffer.from(certificate.p12).toString("base64"), password: certificate.password }, session);
  const apiKey = String((await call("tokens", { name: "sdk tests", permissions: ["*"], business_id: businessId }, session))["key"]);
  for (const tipo of tipos) await call("sandbox/numerations", { tipo, cantidad: 1000 }, { "x-api-key": apiKey });
  const intercambio = business["intercambio"] as { email?: string } | undefined;
  return { apiKey, businessId, intercambioEmail: intercambio?.email ?? "" };
}

const flag = process.argv.indexOf("--tipos");
const tipos = flag >= 0 ? String(process.argv[flag + 1]).split(",").map(Number) : [33];
const exchange = process.argv.includes("--exchange");
const SUPPLIER_RUT = "77777777-7";

const dataDir = mkdtempSync(join(tmpdir(), "timbre-sdk-server-"));
const mailDir = join(dataDir, "mail");
let mailed = 0;
const latin1 = new TextDecoder("latin1");
const capture = exchange
  ? await startMailCapture((mail) => {
      for (const attachment of mail.attachments) {
        if (!latin1.decode(attachment.content).includes("<EnvioDTE")) continue;
        for (const to of mail.to) writeFileSync(join(mailDir, `${to}-${++mailed}.xml`), attachment.content);
      }
    })
  : null;
if (capture) mkdirSync(mailDir);
const port = await freePort();
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TIMBRE_") && k !== "DATABASE_URL"));
const child = Bun.spawn(["sh", withRuntime, process.execPath, mainTs], {
  cwd: dataDir,
  env: {
    ...clean,
    PORT: String(port),
    TIMBRE_DATA_DIR: dataDir,
    SII_MODE: "sandbox",
    SII_SANDBOX_STEP_MS: "0",
    WEBHOOK_ALLOW_PRIVATE: "true",
    RATE_LIMIT_PER_MINUTE: "100000",
    LOG_LEVEL: "warn",
    ...(capture ? { SMTP_URL: `smtp://127.0.0.1:${capture.port}`, INBOUND_DOMAIN: "in.timbre.test" } : {}),
  },
  stdout: "pipe",
  stderr: "pipe",
  stdin: "ignore",
});
let output = "";
const drain = async (stream: ReadableStream<Uint8Array>) => {
  const decoder = new TextDecoder();
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) output += decoder.decode(chunk, { stream: true });
};
void drain(child.stdout);
void drain(child.stderr);

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    if (child.exitCode === null) child.kill("SIGTERM");
    const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
    if (!exited) child.kill("SIGKILL");
    await child.exited;
    await capture?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
// The parent closing our stdin (or dying) ends the server with it.
process.stdin.on("data", () => undefined);
process.stdin.on("end", () => void stop(0));

const baseUrl = `http://127.0.0.1:${port}/v1`;
const deadline = Date.now() + START_TIMEOUT_MS;
for (;;) {
  if (child.exitCode !== null) {
    process.stderr.write(`server exited with ${child.exitCode}:\n${output}\n`);
    await stop(1);
  }
  if (await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false)) break;
  if (Date.now() > deadline) {
    process.stderr.write(`server did not answer /v1/health within ${START_TIMEOUT_MS} ms:\n${output}\n`);
    await stop(1);
  }
  await Bun.sleep(200);
}

try {
  const tenant = await sandboxTenant(baseUrl, tipos);
  const line: Record<string, unknown> = { base_url: baseUrl, api_key: tenant.apiKey, business_id: tenant.businessId };
  if (capture) {
    const supplier = await sandboxTenant(baseUrl, [33], { rut: SUPPLIER_RUT, razonSocial: "Proveedora del Sur SpA" });
    Object.assign(line, { intercambio_email: tenant.intercambioEmail, mail_dir: mailDir, supplier: { api_key: supplier.apiKey, business_id: supplier.businessId, rut: SUPPLIER_RUT } });
  }
  process.stdout.write(`${JSON.stringify(line)}\n`);
} catch (error) {
  process.stderr.write(`could not set up the sandbox tenant: ${String(error)}\n${output}\n`);
  await stop(1);
}
