import { afterEach, expect, test } from "bun:test";
import { ok, type RecordingServer, startRecordingServer } from "../test/support/recording-server.js";
import { Timbre } from "./client.js";
import type { Dte } from "./types.js";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Serves `total` fake DTEs, paginated exactly like the API (a page past the end is empty). */
function serveDtes(total: number) {
  return startRecordingServer((req) => {
    const page = Number(req.query.get("page") ?? "1");
    const limit = Number(req.query.get("limit") ?? "20");
    const items = Array.from({ length: total }, (_, i) => ({ id: `dte_${i + 1}`, folio: i + 1, tipo: 33 }));
    const data = items.slice((page - 1) * limit, page * limit);
    return ok(data, { pagination: { page, limit, total, total_pages: Math.ceil(total / limit) } });
  });
}

test("await gives one page with its pagination", async () => {
  server = serveDtes(45);
  const page = await new Timbre({ baseUrl: server.baseUrl, apiKey: "k" }).dte.list({ tipo: 33 });
  expect(page.data).toHaveLength(20);
  expect(page.pagination).toEqual({ page: 1, limit: 20, total: 45, total_pages: 3 });
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]?.query.get("tipo")).toBe("33");
});

test("for await walks every item of every page, keeping filters", async () => {
  server = serveDtes(45);
  const folios: number[] = [];
  for await (const dte of new Timbre({ baseUrl: server.baseUrl, apiKey: "k" }).dte.list({ tipo: 33 })) {
    folios.push((dte as Dte).folio);
  }
  expect(folios).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
  expect(server.requests.map((r) => r.query.get("page"))).toEqual(["1", "2", "3"]);
  expect(server.requests.every((r) => r.query.get("tipo") === "33")).toBe(true);
});

test("iteration starts at the requested page and honours limit", async () => {
  server = serveDtes(10);
  const list = new Timbre({ baseUrl: server.baseUrl, apiKey: "k" }).dte.list({ page: 2, limit: 3 });
  const ids = await list.toArray();
  expect(ids.map((d) => d.id)).toEqual(["dte_4", "dte_5", "dte_6", "dte_7", "dte_8", "dte_9", "dte_10"]);
  expect(server.requests.map((r) => r.query.get("page"))).toEqual(["2", "3", "4"]);
});

test("breaking out early stops fetching", async () => {
  server = serveDtes(100);
  let seen = 0;
  for await (const _ of new Timbre({ baseUrl: server.baseUrl, apiKey: "k" }).tokens.list({ limit: 10 })) {
    if (++seen === 5) break;
  }
  expect(server.requests).toHaveLength(1);
});

test("an empty list yields nothing", async () => {
  server = serveDtes(0);
  const all = await new Timbre({ baseUrl: server.baseUrl, apiKey: "k" }).events.list().toArray();
  expect(all).toEqual([]);
  expect(server.requests).toHaveLength(1);
});

test("awaiting and iterating the same list fetches the first page once", async () => {
  server = serveDtes(25);
  const list = new Timbre({ baseUrl: server.baseUrl, apiKey: "k" }).dte.list();
  const first = await list;
  const all = await list.toArray();
  expect(first.data).toHaveLength(20);
  expect(all).toHaveLength(25);
  expect(server.requests).toHaveLength(2);
});
