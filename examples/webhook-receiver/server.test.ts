// Starts the receiver under node and bun, then sends it signed, tampered and unsigned deliveries.
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { webhooks } from "@timbre/sdk";

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
        const { value } = await receiver.reader.read();
        expect(receiver.output() + new TextDecoder().decode(value)).toContain("DTE 39 N° 88: ENVIADO → ACEPTADO");
      } finally {
        receiver.child.kill();
      }
    }, 30_000);
  });
}
