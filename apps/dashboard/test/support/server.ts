/**
 * Starts the REAL server (`apps/server/src/main.ts`) as a child process on a fresh embedded database with the
 * SII sandbox, and — while app.ts does not mount the dashboard yet — a same-origin front that serves the
 * dashboard plugin and forwards everything else to the child. Also a local webhook receiver.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Elysia } from "elysia";
import { dashboard } from "../../../server/src/http/dashboard.js";

const MAIN = fileURLToPath(new URL("../../../server/src/main.ts", import.meta.url));

export interface RunningServer {
  /** Origin the browser uses (serves /dashboard and /v1). */
  origin: string;
  /** The API server itself. */
  api: string;
  /** Whether the front proxy was needed (app.ts does not mount the dashboard yet). */
  proxied: boolean;
  logs: string[];
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** `env` adds to (or overrides) the server's environment: mail settings for the received documents' journey. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "timbre-dashboard-"));
  const port = await freePort();
  const logs: string[] = [];
  const child = Bun.spawn([process.execPath, MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      TIMBRE_DATA_DIR: dataDir,
      DATABASE_URL: "",
      SII_MODE: "sandbox",
      WEBHOOK_ALLOW_PRIVATE: "true",
      RATE_LIMIT_PER_MINUTE: "100000",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  void collect(child.stdout, logs);
  void collect(child.stderr, logs);
  const api = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${logs.join("")}`);
    const ok = await fetch(`${api}/v1/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${logs.join("")}`);
    await Bun.sleep(250);
  }
  const mounted = (await fetch(`${api}/dashboard/`)).status === 200;
  let front: ReturnType<typeof Bun.serve> | null = null;
  if (!mounted) {
    const assets = new Elysia().use(dashboard());
    front = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        const url = new URL(request.url);
        if (url.pathname === "/" || url.pathname.startsWith("/dashboard")) return assets.handle(request);
        const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
        const headers = new Headers(request.headers);
        headers.delete("host");
        const upstream = await fetch(`${api}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: "manual" });
        // Buffered, and without the hop's encoding headers (fetch has already decoded the body).
        const out = new Headers(upstream.headers);
        out.delete("content-encoding");
        out.delete("content-length");
        out.delete("transfer-encoding");
        return new Response(await upstream.arrayBuffer(), { status: upstream.status, headers: out });
      },
    });
  }
  return {
    origin: front ? `http://127.0.0.1:${front.port}` : api,
    api,
    proxied: front !== null,
    logs,
    async stop() {
      front?.stop(true);
      child.kill("SIGTERM");
      await Promise.race([child.exited, Bun.sleep(5000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function collect(stream: ReadableStream<Uint8Array>, into: string[]): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    into.push(decoder.decode(value));
  }
}

/** `true` when the route exists (anything but 404 without credentials). */
export async function routeExists(api: string, method: string, path: string): Promise<boolean> {
  const r = await fetch(`${api}${path}`, { method, headers: { "content-type": "application/json" }, body: method === "GET" ? undefined : "{}" });
  return r.status !== 404;
}

export interface WebhookReceiver {
  url: string;
  received: Array<{ headers: Record<string, string>; body: string }>;
  stop(): void;
}

export function startReceiver(): WebhookReceiver {
  const received: WebhookReceiver["received"] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
      return new Response("ok");
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hook`, received, stop: () => server.stop(true) };
}
