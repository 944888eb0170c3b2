import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { webhooks, WebhookVerificationError } from "./webhooks.js";

const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
const now = new Date("2026-11-22T14:03:07.123Z");
const ts = Math.floor(now.getTime() / 1000);
const event = {
  id: "evt_01jd0000000000000000000000",
  event: "dte.status_changed",
  environment: "test",
  business_id: "biz_01jd0000000000000000000000",
  created_at: now.toISOString(),
  data: { dte_id: "dte_1", tipo: 33, folio: 7, old_status: "ENVIADO", new_status: "ACEPTADO", timestamp: now.toISOString() },
};
const body = JSON.stringify(event);

async function signedHeaders(overrides: Record<string, string> = {}) {
  return { ...(await webhooks.headers({ id: event.id, timestamp: now, body, secret })), ...overrides };
}

describe("webhooks.verify", () => {
  test("accepts its own signature and returns the typed event", async () => {
    const parsed = await webhooks.verify(body, await signedHeaders(), secret, { now });
    expect(parsed.event).toBe("dte.status_changed");
    if (parsed.event === "dte.status_changed") expect(parsed.data.new_status).toBe("ACEPTADO");
  });

  test("accepts a Headers object and a Uint8Array body", async () => {
    const headers = new Headers(await signedHeaders());
    const parsed = await webhooks.verify(new TextEncoder().encode(body), headers, secret, { now });
    expect(parsed.id).toBe(event.id);
  });

  test("accepts any of several signatures (secret rotation)", async () => {
    const good = (await signedHeaders())["webhook-signature"];
    const other = await webhooks.sign({ id: event.id, timestamp: now, body, secret: "whsec_b3RoZXJzZWNyZXRvdGhlcnNlY3JldA==" });
    const headers = await signedHeaders({ "webhook-signature": `${other} v2,abc ${good}` });
    await expect(webhooks.verify(body, headers, secret, { now })).resolves.toMatchObject({ id: event.id });
  });

  test("rejects a tampered body, a wrong secret and a missing header", async () => {
    const headers = await signedHeaders();
    await expect(webhooks.verify(`${body} `, headers, secret, { now })).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(webhooks.verify(body, headers, "whsec_d3Jvbmc=", { now })).rejects.toThrow("No matching");
    const { "webhook-id": _, ...withoutId } = headers;
    await expect(webhooks.verify(body, withoutId, secret, { now })).rejects.toThrow("Missing");
  });

  test("rejects timestamps outside the tolerance, both ways", async () => {
    const headers = await signedHeaders();
    const later = new Date(now.getTime() + 301_000);
    const earlier = new Date(now.getTime() - 301_000);
    await expect(webhooks.verify(body, headers, secret, { now: later })).rejects.toThrow("too old");
    await expect(webhooks.verify(body, headers, secret, { now: earlier })).rejects.toThrow("future");
    await expect(webhooks.verify(body, headers, secret, { now: later, toleranceSeconds: 600 })).resolves.toBeDefined();
  });

  test("a signature for another id or timestamp does not verify", async () => {
    const headers = await signedHeaders({ "webhook-id": "evt_other" });
    await expect(webhooks.verify(body, headers, secret, { now })).rejects.toBeInstanceOf(WebhookVerificationError);
    const shifted = await signedHeaders({ "webhook-timestamp": String(ts + 1) });
    await expect(webhooks.verify(body, shifted, secret, { now })).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});

describe("interop with the standardwebhooks package", () => {
  test("our signature verifies with standardwebhooks", async () => {
    const headers = await webhooks.headers({ id: event.id, timestamp: new Date(), body, secret });
    const verified = new Webhook(secret).verify(body, headers);
    expect(verified).toEqual(event);
  });

  test("a standardwebhooks signature verifies with ours", async () => {
    const date = new Date();
    const signature = new Webhook(secret).sign(event.id, date, body);
    const headers = {
      "webhook-id": event.id,
      "webhook-timestamp": String(Math.floor(date.getTime() / 1000)),
      "webhook-signature": signature,
    };
    expect(await webhooks.verify(body, headers, secret)).toEqual(event as never);
  });

  test("the same inputs give the same signature", async () => {
    const ours = await webhooks.sign({ id: event.id, timestamp: now, body, secret });
    expect(ours).toBe(new Webhook(secret).sign(event.id, now, body));
  });
});
