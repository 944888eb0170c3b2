// Starts the receiver under node and bun, then sends it signed, tampered and unsigned deliveries; and receives
// real deliveries from the real server (a child process in sandbox mode) after an emission.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { webhooks } from "@timbre/sdk";
import { sandboxTenant, type ServerProcess, startServerProcess } from "../../packages/sdk/test/support/server-process.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const sdkDir = fileURLToPath(new URL("../../packages/sdk", import.meta.url));
const secret = `whsec_${Buffer.from("r".repeat(32)).toString("base64")}`;
const body = JSON.stringify({
  id: "evt_1", event: "dte.status_changed", environment: "test", business_id: "biz_1", created_at: new Date().toISOString(),
  data: { dte_id: "dte_1", tipo: 39, folio: 88, old_status: "ENVIADO", new_status: "ACEPTADO", timestamp: new Date().toISOString() },
});

beforeAll(() => {
  if (!existsSync(join(sdkDir, "dist/index.js"))) spawnSync("npm", ["run", "build"], { cwd: sdkDir });
}, 120_000);

async function startReceiver(runtime: string) {
  const child = Bun.spawn([runtime, "server.js"], {
    cwd: here,
    env: { ...process.env, TIMBRE_WEBHOOK_SECRET: secret, PORT: "0" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  let output = "";
  while (!/Listening on (\S+)/.test(output)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`receiver exited: ${output}`);
    output += new TextDecoder().decode(value);
  }
  const url = /Listening on (\S+)/.exec(output)?.[1] ?? "";
  return { url, child, reader, output: () => output };
}

for (const runtime of ["node", process.execPath]) {
  describe(runtime === "node" ? "node" : "bun", () => {
    test("accepts a signed delivery, refuses tampered and unsigned ones", async () => {
      const receiver = await startReceiver(runtime);
      try {
        const headers = await webhooks.headers({ id: "evt_1", timestamp: new Date(), body, secret });
        const good = await fetch(receiver.url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body });
        expect(good.status).toBe(204);
        const tampered = await fetch(receiver.url, { method: "POST", headers, body: body.replace("88", "89") });
        expect(tampered.status).toBe(400);
        const unsigned = await fetch(receiver.url, { method: "POST", body });
        expect(unsigned.status).toBe(400);
        const claim = JSON.stringify({
          id: "evt_2", event: "dte.acceptance_changed", environment: "test", business_id: "biz_1", created_at: new Date().toISOString(),
          data: { dte_id: "dte_2", tipo: 33, folio: 17, old_status: "SIN_RESPUESTA", new_status: "RECLAMADO", timestamp: new Date().toISOString(),
            eventos: [{ codigo: "RCD", descripcion: "Reclamo al Contenido del Documento", rut_responsable: "60803000-K", fecha: new Date().toISOString() }] },
        });
        const claimHeaders = await webhooks.headers({ id: "evt_2", timestamp: new Date(), body: claim, secret });
        expect((await fetch(receiver.url, { method: "POST", headers: claimHeaders, body: claim })).status).toBe(204);
        let output = receiver.output();
        while (!output.includes("DTE 33 N° 17")) {
          const { value, done } = await receiver.reader.read();
          if (done) break;
          output += new TextDecoder().decode(value);
        }
        expect(output).toContain("DTE 39 N° 88: ENVIADO → ACEPTADO");
        expect(output).toContain("DTE 33 N° 17: receptor RECLAMADO (RCD)");
      } finally {
        receiver.child.kill();
      }
    }, 30_000);
  });
}

describe("real server", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  }, 60_000);
  afterAll(() => server?.stop());

  test("receives and verifies a real delivery after an emission", async () => {
    // The secret is shown when the business gets a webhook URL; point it at the receiver once that listens.
    const tenant = await sandboxTenant(server.baseUrl, { webhookUrl: "http://127.0.0.1:9/not-yet", tipos: [39] });
    const receiverSecret = tenant.webhookSecret ?? "";
    expect(receiverSecret).toMatch(/^whsec_/);
    const child = Bun.spawn(["node", "server.js"], { cwd: here, env: { ...process.env, TIMBRE_WEBHOOK_SECRET: receiverSecret, PORT: "0" }, stdout: "pipe", stderr: "pipe" });
    try {
      const reader = child.stdout.getReader();
      let output = "";
      const readUntil = async (pattern: RegExp, ms: number) => {
        const deadline = Date.now() + ms;
        while (!pattern.test(output)) {
          const next = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => null)]);
          if (!next || next.done) throw new Error(`no ${pattern} in receiver output: ${output}`);
          output += new TextDecoder().decode(next.value);
        }
      };
      await readUntil(/Listening on (\S+)/, 10_000);
      const url = /Listening on (\S+)/.exec(output)?.[1] ?? "";
      const updated = await fetch(`${server.baseUrl}/businesses/${tenant.businessId}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${tenant.accessToken}` },
        body: JSON.stringify({ webhook_url: url }),
      });
      expect(updated.status).toBe(200);
      const emitted = await fetch(`${server.baseUrl}/dte/emit`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": tenant.apiKey },
        body: JSON.stringify({ tipo: 39, receptor: { rut: "66666666-6", razon_social: "Consumidor final" }, items: [{ nombre: "Café", cantidad: 2, precio: 1500 }], precios_brutos: true }),
      });
      expect(emitted.status).toBeLessThan(300);
      await readUntil(/DTE 39 N° 1: \S+ → \S+/, 20_000);
      expect(output).toMatch(/DTE 39 N° 1: \S+ → \S+/);
    } finally {
      child.kill();
    }
  }, 40_000);
});
