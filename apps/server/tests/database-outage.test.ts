/**
 * The database becomes unreachable under a real server process: a TCP proxy (in this test) stands between the
 * server and the real PostgreSQL, and is cut (listener closed, every socket destroyed) and restored. While it is
 * cut, `/dte/emit` and `/dte` answer 503 UNAVAILABLE within the request budget; once it is back, emission works
 * again without a restart. The shared PostgreSQL server itself is never touched.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, connect, type Server, type Socket } from "node:net";
import { http, loadBody, setUpEmitters, startCluster, type Cluster, type Emitter } from "./support/cluster.js";

const BASE = process.env.DATABASE_URL;
const REQUEST_BUDGET_MS = 10_000;

/** A TCP proxy to PostgreSQL on a fixed loopback port that can be cut and restored. */
function databaseProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  /** `stall`: accept connections and never answer (a database host that hangs). */
  const listen = (mode: "forward" | "stall" = "forward") =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        if (mode === "stall") {
          sockets.add(client);
          client.on("close", () => sockets.delete(client));
          client.on("error", () => client.destroy());
          return;
        }
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });
  return {
    listen,
    url: () => {
      const url = new URL(target.toString());
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    cut: async () => {
      const s = server;
      server = null;
      const closed = s ? new Promise<void>((resolve) => s.close(() => resolve())) : Promise.resolve();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe.skipIf(!BASE)("database outage behind a real server process", () => {
  const proxy = databaseProxy(new URL(BASE ?? "postgres://127.0.0.1:5432/test"));
  let cluster: Cluster;
  let emitter: Emitter;
  let base: string;

  beforeAll(async () => {
    await proxy.listen();
    cluster = await startCluster({ servers: 1, baseUrl: proxy.url() });
    base = cluster.servers[0]?.url ?? "";
    emitter = (await setUpEmitters(base, 1, [39], 200)).emitters[0] as Emitter;
    const first = await http(base, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(39, 0) });
    expect([201, 202]).toContain(first.status);
  }, 180_000);

  afterAll(async () => {
    await proxy.listen().catch(() => {});
    await cluster?.close();
  }, 60_000);

  test("cut: /health, /dte/emit and /dte answer 503 UNAVAILABLE within the request budget", async () => {
    await proxy.cut();
    const health = await http(base, "GET", "/v1/health");
    expect(health.status).toBe(503);
    const emit = await http(base, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(39, 1), headers: { "idempotency-key": "outage-1" } });
    const list = await http(base, "GET", "/v1/dte", { key: emitter.key });
    expect({ status: emit.status, code: emit.json?.error?.code }).toEqual({ status: 503, code: "UNAVAILABLE" });
    expect({ status: list.status, code: list.json?.error?.code }).toEqual({ status: 503, code: "UNAVAILABLE" });
    expect(emit.json.error.request_id).toMatch(/^req_/);
    expect(JSON.stringify([emit.json, list.json])).not.toMatch(/ECONNREFUSED|postgres|select|insert/i);
    expect(Math.max(emit.ms, list.ms)).toBeLessThan(REQUEST_BUDGET_MS);
  }, 60_000);

  test("stalled: a database that accepts connections and never answers still gives 503 within the budget", async () => {
    await proxy.listen("stall");
    const emit = await http(base, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(39, 2) });
    const list = await http(base, "GET", "/v1/dte", { key: emitter.key });
    expect({ status: emit.status, code: emit.json?.error?.code }).toEqual({ status: 503, code: "UNAVAILABLE" });
    expect({ status: list.status, code: list.json?.error?.code }).toEqual({ status: 503, code: "UNAVAILABLE" });
    expect(Math.max(emit.ms, list.ms)).toBeLessThan(REQUEST_BUDGET_MS);
    await proxy.cut();
  }, 60_000);

  test("restored: the same process emits again, and the key sent during the outage was not kept", async () => {
    await proxy.listen();
    let health = 0;
    for (let i = 0; i < 100 && health !== 200; i++) {
      health = (await http(base, "GET", "/v1/health")).status;
      if (health !== 200) await Bun.sleep(200);
    }
    expect(health).toBe(200);
    const emit = await http(base, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(39, 1), headers: { "idempotency-key": "outage-1" } });
    expect([201, 202]).toContain(emit.status);
    expect(emit.json.data.folio).toBeGreaterThan(1);
    const list = await http(base, "GET", "/v1/dte", { key: emitter.key });
    expect(list.status).toBe(200);
    expect(list.json.pagination.total).toBe(2);
  }, 60_000);
});
