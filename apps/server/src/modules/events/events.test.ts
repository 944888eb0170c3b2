import { afterAll, beforeAll, expect, test } from "bun:test";
import { createBusiness, createKey, expectError, signUp } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { changeState, deliveriesOfEvent, seedDocument, startReceiver, type Receiver } from "../../../test/support/webhooks.js";
import { createWebhookWorker } from "../../jobs/deliver-webhooks.js";

describeDrivers("GET /v1/events, POST /v1/events/:id/resend", (driver) => {
  let h: Harness;
  let receiver: Receiver;
  let status = 200;
  let user: Awaited<ReturnType<typeof signUp>>;
  let businessId: string;
  let key: string;
  let docIds: string[];
  beforeAll(async () => {
    h = await createHarness(driver, { WEBHOOK_ALLOW_PRIVATE: "true" });
    receiver = startReceiver(() => new Response("", { status }));
    user = await signUp(h);
    businessId = (await createBusiness(h, user.token, { webhook_url: receiver.url })).id;
    key = (await createKey(h, user.token, businessId, ["dte:read", "dte:write"])).key;
    docIds = [];
    for (let folio = 1; folio <= 3; folio++) {
      const doc = await seedDocument(h, businessId, { folio });
      docIds.push(doc.id);
      await changeState(h, await changeState(h, doc, "ENVIADO"), "ACEPTADO");
    }
    const worker = createWebhookWorker(h.deps, { retryDelayMs: () => null });
    await worker.tick();
    await worker.idle();
  }, 60_000);
  afterAll(async () => {
    await receiver.stop();
    await h.close();
  });

  test("newest first, with the delivery log, paginated", async () => {
    const res = await h.call("GET", "/v1/events?limit=4", { key });
    expect(res.status).toBe(200);
    expect(res.json.pagination).toEqual({ page: 1, limit: 4, total: 6, total_pages: 2 });
    const first = res.json.data[0];
    expect(Object.keys(first).sort()).toEqual(["business_id", "created_at", "data", "deliveries", "environment", "event", "id"]);
    expect(first).toMatchObject({ event: "dte.status_changed", environment: "test", business_id: businessId, data: { dte_id: docIds[2], old_status: "ENVIADO", new_status: "ACEPTADO", folio: 3, tipo: 33 } });
    expect(first.deliveries).toEqual([{ attempt: 1, at: expect.stringMatching(/Z$/), status_code: 200, ok: true }]);
    const times = res.json.data.map((e: { created_at: string }) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const page2 = await h.call("GET", "/v1/events?limit=4&page=2", { key });
    expect(page2.json.data).toHaveLength(2);
    expect(page2.json.data.at(-1).data).toMatchObject({ dte_id: docIds[0], new_status: "ENVIADO" });
    const past = await h.call("GET", "/v1/events?page=9", { key });
    expect(past.json.data).toEqual([]);
    expect(past.json.pagination.total).toBe(6);
  });

  test("filter by event kind; an unknown kind or a bad limit is 400", async () => {
    const res = await h.call("GET", "/v1/events?event=dte.status_changed", { key });
    expect(res.json.pagination.total).toBe(6);
    const none = await h.call("GET", "/v1/events?event=numeration.low", { key });
    expect(none.json.data).toEqual([]);
    expectError(await h.call("GET", "/v1/events?event=nope", { key }), 400, "INVALID_PARAMETER");
    expectError(await h.call("GET", "/v1/events?limit=101", { key }), 400, "INVALID_PARAMETER");
  });

  test("resend: 202, a new attempt due now, delivered by the worker and listed", async () => {
    const list = await h.call("GET", "/v1/events?limit=1", { key });
    const eventId = list.json.data[0].id;
    const before = receiver.received.length;
    const res = await h.call("POST", `/v1/events/${eventId}/resend`, { key });
    expect(res.status).toBe(202);
    expect(res.json.data).toMatchObject({ id: eventId, attempt: 2 });
    const worker = createWebhookWorker(h.deps, { retryDelayMs: () => null });
    await worker.tick();
    await worker.idle();
    expect(receiver.received.length).toBe(before + 1);
    expect(receiver.received.at(-1)!.headers["webhook-id"]).toBe(eventId);
    const after = await h.call("GET", "/v1/events?limit=1", { key });
    expect(after.json.data[0].deliveries.map((d: { attempt: number; ok: boolean }) => [d.attempt, d.ok])).toEqual([[1, true], [2, true]]);
  });

  test("resend while a retry is waiting brings that retry forward instead of adding one", async () => {
    status = 500;
    const doc = await seedDocument(h, businessId, { folio: 50 });
    await changeState(h, doc, "ENVIADO");
    const worker = createWebhookWorker(h.deps, { retryDelayMs: () => 3_600_000 });
    await worker.tick();
    await worker.idle();
    status = 200;
    const listed = (await h.call("GET", "/v1/events?limit=1", { key })).json.data[0];
    // the attempt that failed is listed; the retry waiting for its time is not an attempt yet
    expect(listed.deliveries.map((d: { attempt: number; ok: boolean; status_code: number | null }) => [d.attempt, d.ok, d.status_code])).toEqual([[1, false, 500]]);
    const eventId = listed.id;
    const res = await h.call("POST", `/v1/events/${eventId}/resend`, { key });
    expect(res.json.data.attempt).toBe(2);
    await worker.tick();
    await worker.idle();
    expect((await deliveriesOfEvent(h, eventId)).map((d) => [d.attempt, d.state])).toEqual([[1, "retrying"], [2, "delivered"]]);
  });

  test("401 without a credential, 403 without the permission (resend needs dte:write)", async () => {
    expectError(await h.call("GET", "/v1/events"), 401, "UNAUTHORIZED");
    const eventId = (await h.call("GET", "/v1/events?limit=1", { key })).json.data[0].id;
    expectError(await h.call("POST", `/v1/events/${eventId}/resend`), 401, "UNAUTHORIZED");
    const writeOnly = (await createKey(h, user.token, businessId, ["dte:write"])).key;
    const listNo = await h.call("GET", "/v1/events", { key: writeOnly });
    expectError(listNo, 403, "FORBIDDEN");
    expect(listNo.json.error.details.required_permission).toBe("dte:read");
    const readOnly = (await createKey(h, user.token, businessId, ["dte:read"])).key;
    expect((await h.call("GET", "/v1/events", { key: readOnly })).status).toBe(200);
    const resendNo = await h.call("POST", `/v1/events/${eventId}/resend`, { key: readOnly });
    expectError(resendNo, 403, "FORBIDDEN");
    expect(resendNo.json.error.details.required_permission).toBe("dte:write");
  });

  test("another tenant's or another environment's event is 404; sessions name the business", async () => {
    const eventId = (await h.call("GET", "/v1/events?limit=1", { key })).json.data[0].id;
    const other = await signUp(h);
    const otherBusiness = await createBusiness(h, other.token, { webhook_url: receiver.url });
    const otherKey = (await createKey(h, other.token, otherBusiness.id)).key;
    expect((await h.call("GET", "/v1/events", { key: otherKey })).json.data).toEqual([]);
    expectError(await h.call("POST", `/v1/events/${eventId}/resend`, { key: otherKey }), 404, "NOT_FOUND");
    const liveKey = (await createKey(h, user.token, businessId, ["*"], "live")).key;
    expect((await h.call("GET", "/v1/events", { key: liveKey })).json.pagination.total).toBe(0);
    expectError(await h.call("POST", `/v1/events/${eventId}/resend`, { key: liveKey }), 404, "NOT_FOUND");
    expectError(await h.call("POST", "/v1/events/evt_nope/resend", { key }), 404, "NOT_FOUND");
    const session = await h.call("GET", "/v1/events?limit=1", { token: user.token, headers: { "x-business-id": businessId } });
    expect(session.json.data[0].id).toBe(eventId);
    expectError(await h.call("GET", "/v1/events", { token: user.token, headers: { "x-business-id": otherBusiness.id } }), 404, "NOT_FOUND");
  });
});
