import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Sandbox } from "@timbre/sii";
import { documents, envelopes } from "../db/documents.js";
import { emitBody, emitter } from "../../test/support/emission.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { startReceiver, type Receiver } from "../../test/support/webhooks.js";
import { startWorkers } from "./start-workers.js";

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

describeDrivers("document workers against the sandbox SII", (driver) => {
  let h: Harness;
  let sandbox: Sandbox;
  let receiver: Receiver;
  let key: string;
  let secret: string;
  let businessId: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", EMIT_BUDGET_MS: "1500", WEBHOOK_ALLOW_PRIVATE: "true" });
    receiver = startReceiver();
    const t = await emitter(h, { tipos: [33] });
    key = t.key.key;
    businessId = t.business.id;
    const updated = await h.call("PUT", `/v1/businesses/${businessId}`, { token: t.user.token, body: { webhook_url: receiver.url } });
    expect(updated.status).toBe(200);
    secret = updated.json.data.webhook_secret;
    const gateway = await h.deps.sii();
    if (!gateway.sandbox) throw new Error("no in-process sandbox");
    sandbox = gateway.sandbox;
    // Authenticate once, so the fault below hits the upload itself.
    expect((await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33) })).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    sandbox?.faults.clear();
    await receiver?.stop();
    await h?.close();
  });

  test("a PENDIENTE document (upload failed) reaches ENVIADO then ACEPTADO by the workers alone, uploaded once, webhooks delivered", async () => {
    const workers = await startWorkers(h.deps, h.database.jobStore, { intervalsMs: { dispatch: 100, poll: 100, webhooks: 100 } });
    try {
      sandbox.faults.set({ mode: "http500", path: "DTEUpload" });
      const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33) });
      expect(res.status).toBe(202);
      expect(res.json.data.estado).toBe("PENDIENTE");
      const id: string = res.json.data.id;
      const before = sandbox.envelopes().length;
      await Bun.sleep(800); // the dispatcher tries while the SII still fails
      const [still] = await h.deps.db.select().from(documents).where(eq(documents.id, id));
      expect(still?.estado).toBe("PENDIENTE");
      sandbox.faults.clear();
      await until("ACEPTADO", async () => {
        const [row] = await h.deps.db.select({ estado: documents.estado }).from(documents).where(eq(documents.id, id));
        return row?.estado === "ACEPTADO";
      });
      expect(sandbox.envelopes().length).toBe(before + 1);
      const uploaded = await h.deps.db.select().from(envelopes).where(eq(envelopes.status, "uploaded"));
      const status = await h.call("GET", `/v1/dte/${id}/status`, { key });
      expect(status.json.data.historial.map((e: { estado: string }) => e.estado)).toEqual(["PENDIENTE", "ENVIADO", "ACEPTADO"]);
      expect(uploaded.length).toBeGreaterThanOrEqual(2);
      // The webhook worker (same workers) delivered both changes.
      const mine = await until("two deliveries", async () => {
        const list = receiver.received.map((r) => new Webhook(secret).verify(r.body, r.headers) as { data: { dte_id: string; new_status: string } });
        const forDoc = list.filter((p) => p.data.dte_id === id);
        return forDoc.length >= 2 ? forDoc : null;
      });
      expect(mine.map((p) => p.data.new_status).sort()).toEqual(["ACEPTADO", "ENVIADO"]);
    } finally {
      sandbox.faults.clear();
      await workers.stop();
    }
  }, 40_000);
});
