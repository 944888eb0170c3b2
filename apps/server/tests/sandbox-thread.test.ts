/**
 * The in-process sandbox SII (what `npm start` runs) works on a thread of its own, never on the server's: it
 * answers over loopback HTTP while the server's thread is blocked; an emission through `npm start`'s defaults still
 * reaches ACEPTADO; SIGTERM stops it cleanly, and its journal in the data directory keeps what it received.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarness, type Harness } from "../test/support/harness.js";
import { http, loadBody, setUpEmitters } from "./support/cluster.js";
import { startServer } from "./support/server-process.js";

/**
 * Blocks this thread (a synchronous child process) while that child asks the sandbox for a seed: it gets an answer
 * only if the sandbox serves from another thread. Returns the HTTP status the child saw, or null for none.
 */
function askWhileThisThreadIsBlocked(url: string, waitMs: number): number | null {
  const script = `const r = await fetch(${JSON.stringify(`${url}/recursos/v1/boleta.electronica.semilla`)}, { signal: AbortSignal.timeout(${waitMs}) }).catch(() => null); console.log(r ? r.status : "none");`;
  const child = Bun.spawnSync([process.execPath, "-e", script], { timeout: waitMs + 10_000 });
  const out = child.stdout.toString().trim();
  return /^\d+$/.test(out) ? Number(out) : null;
}

describe("the in-process sandbox SII runs off the server's thread", () => {
  const harnesses: Harness[] = [];
  afterAll(async () => {
    for (const h of harnesses) await h.close();
  });

  test("by default it answers while the server's thread is blocked, and is not on it (gateway.sandbox is null)", async () => {
    const h = await createHarness("pglite", { SII_MODE: "sandbox" }, { sandboxOnThisThread: false });
    harnesses.push(h);
    const gateway = await h.deps.sii();
    expect(gateway.sandbox).toBeNull();
    expect(gateway.sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(askWhileThisThreadIsBlocked(gateway.sandboxUrl as string, 20_000)).toBe(200);
  }, 60_000);

  test("control: a sandbox on this thread cannot answer while the thread is blocked", async () => {
    const h = await createHarness("pglite", { SII_MODE: "sandbox" }, { sandboxOnThisThread: true });
    harnesses.push(h);
    const gateway = await h.deps.sii();
    expect(gateway.sandbox).not.toBeNull();
    expect(askWhileThisThreadIsBlocked(gateway.sandboxUrl as string, 2_000)).toBeNull();
  }, 60_000);
});

describe("npm start's defaults (embedded database, in-process sandbox SII)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "timbre-sandbox-thread-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("an emission reaches ACEPTADO; SIGTERM stops cleanly; the sandbox's journal keeps the envelope", async () => {
    const server = await startServer({ TIMBRE_DATA_DIR: dataDir, SII_SANDBOX_STEP_MS: "0", DATABASE_URL: "" }, 90_000);
    let trackId: string | null = null;
    try {
      const [emitter] = (await setUpEmitters(server.url, 1, [33], 10)).emitters;
      if (!emitter) throw new Error("no emitter");
      const emitted = await http(server.url, "POST", "/v1/dte/emit", { key: emitter.key, body: loadBody(33, 1), timeoutMs: 30_000 });
      expect(emitted.status).toBe(201);
      const id = emitted.json.data.id as string;
      let estado = "";
      for (let i = 0; i < 100 && estado !== "ACEPTADO"; i++) {
        const status = await http(server.url, "GET", `/v1/dte/${id}/status?refresh=true`, { key: emitter.key });
        expect(status.status).toBe(200);
        estado = status.json.data.estado;
        trackId = status.json.data.track_id ?? trackId;
        if (estado !== "ACEPTADO") await Bun.sleep(200);
      }
      expect(estado).toBe("ACEPTADO");
    } finally {
      expect(await server.stop("SIGTERM")).toBe(0);
    }
    const journals = readdirSync(dataDir).filter((name) => /^sii-sandbox-[0-9a-f]{16}\.jsonl$/.test(name));
    expect(journals).toHaveLength(1);
    expect(trackId).not.toBeNull();
    expect(readFileSync(join(dataDir, journals[0] as string), "utf8")).toContain(`"trackId":"${trackId}"`);
  }, 120_000);
});
