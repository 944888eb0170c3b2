/**
 * Body limits over real HTTP, against a real server process: every oversized body gets the API's 413 envelope with
 * a Request-Id (API.md §1, §8) — declared by Content-Length or streamed without it, JSON or upload, and bodies far
 * beyond the limits too — never the HTTP server's own bare 413. And `POST /v1/sandbox/numerations` is a JSON route;
 * a second server on a port already taken stops with a clear message instead of sharing it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runServerToExit, startServer, type ServerProcess } from "./support/server-process.js";

const dir = mkdtempSync(join(tmpdir(), "timbre-limits-"));
let server: ServerProcess;
let key: string;
let businessId: string;

beforeAll(async () => {
  server = await startServer({ TIMBRE_DATA_DIR: dir, DATABASE_URL: "" }, 90_000);
  for (let i = 0; i < 200 && !/sk_test_[0-9A-Za-z]{32}/.test(server.output()); i++) await Bun.sleep(50);
  key = /sk_test_[0-9A-Za-z]{32}/.exec(server.output())?.[0] ?? "";
  const me = await fetch(`${server.url}/v1/auth/me`, { headers: { "x-api-key": key } });
  businessId = ((await me.json()) as { data: { business_id: string } }).data.business_id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** A body of `size` bytes sent as a stream (chunked, no Content-Length). */
const streamed = (size: number, chunk = 256 * 1024) =>
  new ReadableStream<Uint8Array>({
    pull(controller) {
      if (size <= 0) return controller.close();
      const n = Math.min(chunk, size);
      size -= n;
      controller.enqueue(new Uint8Array(n).fill(0x20));
    },
  });

async function expectTooLarge(response: Response, limit: number): Promise<void> {
  expect(response.status).toBe(413);
  expect(response.headers.get("request-id")).toMatch(/^req_/);
  const body = (await response.json()) as { success: boolean; error: { code: string; details: { limit_bytes: number } } };
  expect(body.success).toBe(false);
  expect(body.error.code).toBe("PAYLOAD_TOO_LARGE");
  expect(body.error.details.limit_bytes).toBe(limit);
}

test("JSON over 1 MiB, declared or streamed, and 6 MiB → the 413 envelope", async () => {
  const headers = { "x-api-key": key, "content-type": "application/json" };
  const sixMiB = `{"x":"${"a".repeat(6 * 1024 * 1024)}"}`;
  await expectTooLarge(await fetch(`${server.url}/v1/dte/emit`, { method: "POST", headers, body: sixMiB }), 1024 * 1024);
  await expectTooLarge(await fetch(`${server.url}/v1/dte/emit`, { method: "POST", headers, body: streamed(2 * 1024 * 1024) }), 1024 * 1024);
});

test("uploads over 5 MiB, and a streamed body of 64 MiB, → the 413 envelope", async () => {
  const url = `${server.url}/v1/businesses/${businessId}/numerations`;
  const headers = { "x-api-key": key, "content-type": "application/xml" };
  await expectTooLarge(await fetch(url, { method: "POST", headers, body: new Uint8Array(6 * 1024 * 1024).fill(0x20) }), 5 * 1024 * 1024);
  await expectTooLarge(await fetch(url, { method: "POST", headers, body: streamed(64 * 1024 * 1024) }), 5 * 1024 * 1024);
  // the server still answers
  expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
});

test("POST /v1/sandbox/numerations takes JSON only: another content type → 400 INVALID_JSON", async () => {
  const res = await fetch(`${server.url}/v1/sandbox/numerations`, { method: "POST", headers: { "x-api-key": key, "content-type": "text/plain" }, body: "x" });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("INVALID_JSON");
});

test("a second server on the same port (another data directory) stops with a clear message, creating nothing; the first keeps every request", async () => {
  const other = mkdtempSync(join(tmpdir(), "timbre-limits-other-"));
  try {
    const port = new URL(server.url).port;
    const second = await runServerToExit({ TIMBRE_DATA_DIR: other, DATABASE_URL: "", PORT: port });
    expect(second.code).toBe(1);
    expect(second.output).toContain(`port ${port} is already in use`);
    expect(second.output).not.toMatch(/sk_test_/);
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/v1/auth/me`, { headers: { "x-api-key": key } })).status).toBe(200);
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
}, 60_000);

test("request headers over the limit: 431 with the API's envelope and a Request-Id, not the runtime's bare 431", async () => {
  for (const path of ["/v1/auth/me", "/v1/health"]) {
    const response = await fetch(`${server.url}${path}`, { headers: { "x-api-key": key, "x-padding": "a".repeat(20 * 1024) } });
    expect(response.status).toBe(431);
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    const body = (await response.json()) as { success: boolean; error: { code: string; request_id: string; details: { limit_bytes: number } } };
    expect(body).toMatchObject({ success: false, error: { code: "HEADERS_TOO_LARGE", details: { limit_bytes: 16 * 1024 } } });
    expect(body.error.request_id).toBe(response.headers.get("request-id") ?? "");
  }
  // Far beyond the limit (100 headers, 100 KiB): still the envelope. (Bun's parser refuses more than about 200
  // header lines itself, with its bare 431: no flag changes that count.)
  const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-h${i}`, "b".repeat(1000)]));
  const flood = await fetch(`${server.url}/v1/auth/me`, { headers: { ...many, "x-api-key": key } });
  expect(flood.status).toBe(431);
  expect(((await flood.json()) as { error: { code: string } }).error.code).toBe("HEADERS_TOO_LARGE");
  // Just under it: served.
  const under = await fetch(`${server.url}/v1/auth/me`, { headers: { "x-api-key": key, "x-padding": "a".repeat(12 * 1024) } });
  expect(under.status).toBe(200);
});
