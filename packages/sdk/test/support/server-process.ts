/**
 * Starts the real Timbre server as a child process (`bun apps/server/src/main.ts`) with a temporary data
 * directory, a free loopback port and the SII sandbox, the way a user runs it. Used by the CLI and example tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const mainTs = fileURLToPath(new URL("../../../../apps/server/src/main.ts", import.meta.url));

export interface ServerProcess {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  port: number;
  /** Everything the server wrote so far. */
  output(): string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "timbre-server-"));
  const port = await freePort();
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TIMBRE_") && k !== "DATABASE_URL"));
  const child = Bun.spawn([process.execPath, mainTs], {
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
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      output += decoder.decode(value, { stream: true });
    }
  };
  void drain(child.stdout);
  void drain(child.stderr);
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const ok = await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`server did not answer /v1/health within 30 s:\n${output}`);
    }
    await Bun.sleep(100);
  }
  return {
    baseUrl,
    port,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
      if (!exited) child.kill("SIGKILL");
      await child.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SandboxTenant {
  businessId: string;
  /** An `sk_test_` key with every permission on the business. */
  apiKey: string;
  /** The business webhook secret (when created with a webhook URL). */
  webhookSecret: string | null;
  accessToken: string;
}

/**
 * Over plain HTTP: registers a user, creates a business (optionally with a webhook URL), uploads a test
 * certificate, creates an API key and issues sandbox CAFs of the given tipos.
 */
export async function sandboxTenant(baseUrl: string, options: { webhookUrl?: string; tipos?: number[] } = {}): Promise<SandboxTenant> {
  const call = async (method: string, path: string, body: unknown, auth: Record<string, string> = {}) => {
    const response = await fetch(`${baseUrl}/${path}`, {
      method,
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { data?: Record<string, unknown> };
    if (!response.ok || !json.data) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const registered = await call("POST", "auth/register", { email: `tenant-${crypto.randomUUID()}@example.com`, password: "una clave bien larga", nombre: "Ana" });
  const accessToken = String(registered["access_token"]);
  const session = { authorization: `Bearer ${accessToken}` };
  const business = await call("POST", "businesses", {
    rut: "76192083-9", razon_social: "Café Austral SpA", giro: "Cafetería", acteco: [561000],
    direccion: "Av. Providencia 1234", comuna: "Providencia",
    ...(options.webhookUrl ? { webhook_url: options.webhookUrl } : {}),
  }, session);
  const businessId = String(business["id"]);
  const { generateTestCertificate } = (await import(new URL("../../../core/src/testing/index.ts", import.meta.url).href)) as {
    generateTestCertificate(options: Record<string, unknown>): Promise<{ p12: Uint8Array; password: string }>;
  };
  const now = Date.now();
  const cert = await generateTestCertificate({
    rut: "11111111-1", name: "ANA PEREZ", password: "clave",
    validFrom: new Date(now - 86_400_000), validTo: new Date(now + 365 * 86_400_000),
  });
  await call("POST", `businesses/${businessId}/certificate`, { pfx_base64: Buffer.from(cert.p12).toString("base64"), password: cert.password }, session);
  const key = await call("POST", "tokens", { name: "tenant", permissions: ["*"], business_id: businessId }, session);
  const apiKey = String(key["key"]);
  for (const tipo of options.tipos ?? [33]) await call("POST", "sandbox/numerations", { tipo, cantidad: 100 }, { "x-api-key": apiKey });
  const secret = business["webhook_secret"];
  return { businessId, apiKey, webhookSecret: typeof secret === "string" ? secret : null, accessToken };
}
