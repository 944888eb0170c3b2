import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { nextRetryDelay } from "./schedule.js";
import { generateWebhookSecret, webhookHeaders } from "./sign.js";

describe("webhook signatures", () => {
  test("the standardwebhooks package verifies our signature", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: "evt_1", event: "dte.status_changed", data: { folio: 1 } });
    const ts = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret], "evt_1", ts, body);
    const verified = new Webhook(secret).verify(body, headers);
    expect(verified).toEqual(JSON.parse(body));
  });

  test("during rotation both the old and the new secret verify", () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const body = "{}";
    const ts = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([newSecret, oldSecret], "evt_2", ts, body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  test("a changed body fails verification", () => {
    const secret = generateWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret], "evt_3", ts, '{"a":1}');
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
  });
});

describe("retry schedule", () => {
  test("5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then give up", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map(nextRetryDelay);
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000, null]);
  });
});
