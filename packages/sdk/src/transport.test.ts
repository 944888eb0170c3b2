import { afterEach, describe, expect, test } from "bun:test";
import {
  closedPort,
  fail,
  ok,
  type RecordingServer,
  startFlakySocketServer,
  startRecordingServer,
} from "../test/support/recording-server.js";
import { Timbre } from "./client.js";
import { ApiError, ConnectionError, RateLimitError, TimbreError } from "./errors.js";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A client with near-zero back-off so tests stay fast; Retry-After still rules where sent. */
const clientFor = (baseUrl: string, extra: ConstructorParameters<typeof Timbre>[0] = {}) =>
  new Timbre({ baseUrl, apiKey: "sk_test_x", initialRetryDelay: 1, maxRetryDelay: 5, ...extra });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("retries", () => {
  test("GET is retried on 5xx and succeeds", async () => {
    server = startRecordingServer((_req, i) => (i < 2 ? fail(503, "UNAVAILABLE") : ok({ status: "ok" })));
    const health = await clientFor(server.baseUrl).health();
    expect(health.status).toBe("ok");
    expect(server.requests).toHaveLength(3);
  });

  test("gives up after maxRetries and throws the mapped error", async () => {
    server = startRecordingServer(() => fail(500, "INTERNAL_ERROR"));
    const error = await clientFor(server.baseUrl, { maxRetries: 3 }).auth.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect((error as ApiError).requestId).toBe("req_err");
    expect(server.requests).toHaveLength(4);
  });

  test("429 waits for Retry-After seconds before retrying", async () => {
    server = startRecordingServer((_req, i) =>
      i === 0 ? fail(429, "RATE_LIMITED", { retry_after: 1 }, { "retry-after": "1" }) : ok({ valid: true }),
    );
    const started = performance.now();
    const result = await clientFor(server.baseUrl).rut.validate({ rut: "76192083-9" });
    const elapsed = performance.now() - started;
    expect(result.valid).toBe(true);
    expect(server.requests).toHaveLength(2);
    // Back-off alone is ≤ 5 ms here, so a ~1 s gap can only come from Retry-After.
    expect(elapsed).toBeGreaterThanOrEqual(950);
  });

  test("429 without retries left surfaces RateLimitError.retryAfter", async () => {
    server = startRecordingServer(() => fail(429, "RATE_LIMITED", { retry_after: 7 }, { "retry-after": "7" }));
    const error = await clientFor(server.baseUrl, { maxRetries: 0 }).auth.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(7);
    expect(server.requests).toHaveLength(1);
  });

  test("a Retry-After longer than a minute is not waited for", async () => {
    server = startRecordingServer(() => fail(429, "RATE_LIMITED", {}, { "retry-after": "3600" }));
    const error = await clientFor(server.baseUrl).auth.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(1);
  });

  test("4xx other than 429 is not retried", async () => {
    server = startRecordingServer(() => fail(422, "VALIDATION_ERROR", { field: "rut", reason: "required" }));
    await expect(clientFor(server.baseUrl).rut.validate({ rut: "" })).rejects.toBeInstanceOf(TimbreError);
    expect(server.requests).toHaveLength(1);
  });

  test("network errors are retried (connections dropped twice, then answered)", async () => {
    const flaky = await startFlakySocketServer(2, { success: true, data: { status: "ok" } });
    try {
      const health = await clientFor(flaky.baseUrl).health();
      expect(health.status).toBe("ok");
      expect(flaky.connections()).toBe(3);
    } finally {
      await flaky.stop();
    }
  });

  test("connection refused becomes ConnectionError after retries", async () => {
    const port = await closedPort();
    const error = await clientFor(`http://127.0.0.1:${port}/v1`).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe("CONNECTION_ERROR");
    expect((error as ConnectionError).status).toBeUndefined();
  });

  test("a timeout becomes ConnectionError code TIMEOUT and is retried", async () => {
    server = startRecordingServer(async () => {
      await Bun.sleep(300);
      return ok({ status: "ok" });
    });
    const error = await clientFor(server.baseUrl, { timeout: 50, maxRetries: 1 }).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe("TIMEOUT");
    await Bun.sleep(20);
    expect(server.requests).toHaveLength(2);
  });
});

describe("idempotency", () => {
  test("a POST gets a generated key, reused on every retry", async () => {
    server = startRecordingServer((_req, i) => (i < 2 ? fail(502, "INTERNAL_ERROR") : ok({ id: "dte_1" }, {}, 201)));
    const dte = await clientFor(server.baseUrl).dte.emit({
      tipo: 39,
      receptor: { rut: "66666666-6", razon_social: "Consumidor" },
      items: [{ nombre: "Café", cantidad: 1, precio: 1500 }],
    });
    expect(dte.id).toBe("dte_1");
    const keys = server.requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(server.requests.every((r) => r.body === server?.requests[0]?.body)).toBe(true);
  });

  test("each call gets its own key", async () => {
    server = startRecordingServer(() => ok({ valid: true }));
    const client = clientFor(server.baseUrl);
    await client.rut.validate({ rut: "1-9" });
    await client.rut.validate({ rut: "1-9" });
    const [a, b] = server.requests.map((r) => r.headers.get("idempotency-key"));
    expect(a).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  test("a caller-supplied key is sent as is, across retries", async () => {
    server = startRecordingServer((_req, i) => (i === 0 ? fail(503, "UNAVAILABLE") : ok({ id: "key_1" }, {}, 201)));
    await clientFor(server.baseUrl).tokens.create({ name: "ci", permissions: ["dte:read"] }, { idempotencyKey: "order-42" });
    expect(server.requests.map((r) => r.headers.get("idempotency-key"))).toEqual(["order-42", "order-42"]);
  });

  test("a POST without a key is never retried", async () => {
    server = startRecordingServer(() => fail(503, "UNAVAILABLE"));
    const error = await clientFor(server.baseUrl)
      .rut.validate({ rut: "1-9" }, { idempotencyKey: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.get("idempotency-key")).toBeNull();
  });

  test("auth POSTs carry no key and are not retried (refresh tokens rotate)", async () => {
    server = startRecordingServer(() => fail(503, "UNAVAILABLE"));
    await expect(clientFor(server.baseUrl).auth.refresh({ refresh_token: "rt" })).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.get("idempotency-key")).toBeNull();
  });

  test("409 IDEMPOTENCY_IN_PROGRESS is retried with the same key; other 409s are not", async () => {
    server = startRecordingServer((_req, i) => (i === 0 ? fail(409, "IDEMPOTENCY_IN_PROGRESS") : ok({ id: "dte_2" }, {}, 201)));
    await clientFor(server.baseUrl).dte.anular("dte_1");
    expect(server.requests).toHaveLength(2);
    await server.stop();
    server = startRecordingServer(() => fail(409, "CONFLICT", { reason: "email_taken" }));
    await expect(clientFor(server.baseUrl).businesses.create({} as never)).rejects.toBeInstanceOf(TimbreError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("request shape", () => {
  test("API key, session headers, query and JSON body", async () => {
    server = startRecordingServer(() => ok({ id: "dte_1", estado: "ACEPTADO" }));
    await clientFor(server.baseUrl).dte.status("dte_1", { refresh: true });
    const session = new Timbre({ baseUrl: server.baseUrl, accessToken: "jwt", businessId: "biz_1", environment: "live" });
    await session.dte.status("dte_1");
    const [withKey, withSession] = server.requests;
    expect(withKey?.path).toBe("/v1/dte/dte_1/status");
    expect(withKey?.query.get("refresh")).toBe("true");
    expect(withKey?.headers.get("x-api-key")).toBe("sk_test_x");
    expect(withKey?.method).toBe("GET");
    expect(withSession?.headers.get("authorization")).toBe("Bearer jwt");
    expect(withSession?.headers.get("x-business-id")).toBe("biz_1");
    expect(withSession?.headers.get("x-environment")).toBe("live");
    expect(withSession?.query.has("refresh")).toBe(false);
  });

  test("downloads return the exact bytes", async () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xe9, 0x00, 0xff]);
    server = startRecordingServer(() => new Response(bytes, { headers: { "content-type": "application/pdf" } }));
    const pdf = await clientFor(server.baseUrl).dte.pdf("dte_1", { formato: "termica", cedible: true });
    expect(pdf).toBeInstanceOf(Uint8Array);
    expect([...pdf]).toEqual([...bytes]);
    expect(server.requests[0]?.query.get("formato")).toBe("termica");
    expect(server.requests[0]?.query.get("cedible")).toBe("true");
  });

  test("certificate upload is multipart with file and password", async () => {
    server = startRecordingServer(() => ok({ id: "biz_1", certificate: { serial: "1" } }));
    const p12 = new Uint8Array([1, 2, 3, 250]);
    await clientFor(server.baseUrl).businesses.certificate.upload({ id: "biz_1", file: p12, password: "ñandú" });
    const form = server.requests[0]?.form;
    expect(server.requests[0]?.path).toBe("/v1/businesses/biz_1/certificate");
    expect(form?.get("password")).toBe("ñandú");
    const file = form?.get("file");
    expect(file).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await (file as Blob).arrayBuffer())]).toEqual([1, 2, 3, 250]);
  });

  test("a 2xx that is not the envelope is an ApiError", async () => {
    server = startRecordingServer(() => new Response("<html>proxy</html>", { headers: { "content-type": "text/html" } }));
    const error = await clientFor(server.baseUrl).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("INVALID_RESPONSE");
  });
});
