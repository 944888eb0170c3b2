import { afterEach, expect, test } from "bun:test";
import { ok, type RecordingServer, startRecordingServer } from "../test/support/recording-server.js";
import { normalizeApiUrl } from "./api-url.js";
import { Timbre } from "./client.js";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

test("an API URL with or without /v1 and trailing slashes is one root ending in /v1", () => {
  for (const url of ["http://host:3000", "http://host:3000/", "http://host:3000/v1", "http://host:3000/v1/", " http://host:3000/v1// ", "http://host:3000/V1"]) {
    expect(normalizeApiUrl(url)).toBe("http://host:3000/v1");
  }
  expect(normalizeApiUrl("https://erp.example.cl/timbre/")).toBe("https://erp.example.cl/timbre/v1");
  expect(normalizeApiUrl("https://erp.example.cl/timbre/v1?x=1")).toBe("https://erp.example.cl/timbre/v1");
  expect(normalizeApiUrl("http://host:3000/v10")).toBe("http://host:3000/v10/v1");
});

test("the client sends every request under /v1 whichever form it was given (real HTTP on loopback)", async () => {
  server = startRecordingServer(() => ok({ status: "ok" }));
  const root = server.baseUrl.replace(/\/v1$/, "");
  for (const baseUrl of [root, `${root}/`, `${root}/v1`, `${root}/v1/`]) await new Timbre({ baseUrl, apiKey: "sk_test_x" }).health();
  expect(server.requests.map((r) => r.path)).toEqual(["/v1/health", "/v1/health", "/v1/health", "/v1/health"]);
});
