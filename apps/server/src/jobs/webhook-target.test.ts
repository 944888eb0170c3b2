import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { businesses } from "../db/businesses.js";
import { createBusiness, signUp } from "../../test/support/fixtures.js";
import { createHarness, type Harness } from "../../test/support/harness.js";
import { changeState, deliveriesOfEvent, eventIdsOf, seedDocument, startReceiver } from "../../test/support/webhooks.js";
import { resolveWebhookTarget } from "../modules/businesses/check-webhook-url.js";
import { createWebhookWorker } from "./deliver-webhooks.js";

describe("delivery-time SSRF guard", () => {
  const publicOnly = { requireHttps: false, allowPrivate: false };

  test("names are resolved: a public name pointing at a private address is refused", async () => {
    const lookup = async (host: string) => (host === "hooks.example.com" ? ["93.184.216.34"] : ["93.184.216.34", "10.1.2.3"]);
    expect(await resolveWebhookTarget("https://hooks.example.com/x", { ...publicOnly, lookup })).toBeNull();
    expect(await resolveWebhookTarget("https://rebound.example.com/x", { ...publicOnly, lookup })).toMatchObject({ reason: "not_allowed" });
    const failing = async () => {
      throw new Error("ENOTFOUND");
    };
    expect(await resolveWebhookTarget("https://nowhere.example/x", { ...publicOnly, lookup: failing })).toMatchObject({ reason: "unresolvable" });
  });

  test("literal loopback, private, link-local and IPv4-mapped targets are refused", async () => {
    for (const url of ["http://127.0.0.1:9/x", "http://[::1]/x", "http://10.0.0.8/", "http://169.254.169.254/latest", "http://[::ffff:127.0.0.1]/", "http://localhost:3000/", "http://2130706433/"]) {
      expect(await resolveWebhookTarget(url, publicOnly)).toMatchObject({ reason: "not_allowed" });
    }
    expect(await resolveWebhookTarget("http://127.0.0.1:9/x", { requireHttps: false, allowPrivate: true })).toBeNull();
    expect(await resolveWebhookTarget("http://hooks.example.com/", { requireHttps: true, allowPrivate: true })).toMatchObject({ reason: "format" });
  });
});

describe("WEBHOOK_ALLOW_PRIVATE=false", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness("pglite", { WEBHOOK_ALLOW_PRIVATE: "false" });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  }, 60_000);

  test("a loopback receiver is never called; the refusal is recorded on the attempt", async () => {
    const receiver = startReceiver();
    try {
      const user = await signUp(h);
      const business = await createBusiness(h, user.token, { webhook_url: "https://hooks.example.com/timbre" });
      // As if the name had pointed somewhere public when saved and now resolves to loopback: store the target directly.
      await h.deps.db.update(businesses).set({ webhookUrl: receiver.url }).where(eq(businesses.id, business.id));
      await changeState(h, await seedDocument(h, business.id), "ENVIADO");
      const worker = createWebhookWorker(h.deps, { retryDelayMs: () => null });
      await worker.tick();
      await worker.idle();
      expect(receiver.received).toHaveLength(0);
      const [eventId] = await eventIdsOf(h, business.id);
      const [row] = await deliveriesOfEvent(h, eventId!);
      expect(row).toMatchObject({ state: "failed", statusCode: null });
      expect(row!.error).toContain("private");
    } finally {
      await receiver.stop();
    }
  });
});
