// dte.batchAll: any number of documents as batch requests, results at the documents' positions; documents keyed by
// content on request.
import { afterEach, expect, test } from "bun:test";
import { ok, type RecordingServer, startRecordingServer } from "../test/support/recording-server.js";
import { Timbre } from "./client.js";
import type { BatchResultItem, EmitParams } from "./types.js";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const boleta = (nombre: string): EmitParams => ({ tipo: 39, receptor: { rut: "66666666-6", razon_social: "CF" }, items: [{ nombre, cantidad: 1, precio: 1000 }] });

/** Answers each batch with one result per document; the second document of every request fails. */
function batchServer() {
  return startRecordingServer((req) => {
    const { documents } = JSON.parse(req.body) as { documents: EmitParams[] };
    return ok({ results: documents.map((d, index) => (index === 1 ? { index, success: false, error: { code: "VALIDATION_ERROR", message: d.items[0]!.nombre } } : { index, success: true, data: { id: `dte_${d.items[0]!.nombre}` } })) });
  });
}

test("chunks, global indexes, progress, and the same keys when the same documents are sent again", async () => {
  server = batchServer();
  const client = new Timbre({ baseUrl: server.baseUrl, apiKey: "sk_test_x" });
  const documents = ["a", "b", "c", "d", "e"].map(boleta);
  const progress: number[] = [];
  const { results } = await client.dte.batchAll(documents, { chunkSize: 2, onProgress: (r, total) => progress.push(r.length, total) });
  expect(server.requests.map((r) => (JSON.parse(r.body) as { documents: unknown[] }).documents.length)).toEqual([2, 2, 1]);
  expect(results.map((r: BatchResultItem) => [r.index, r.success, r.data?.id ?? r.error?.message])).toEqual([
    [0, true, "dte_a"], [1, false, "b"], [2, true, "dte_c"], [3, false, "d"], [4, true, "dte_e"],
  ]);
  expect(progress).toEqual([2, 5, 4, 5, 5, 5]);

  // Without contentKeys: each request its own random key (retries of that request reuse it), documents unkeyed —
  // calling again emits again, as two equal boletas sold an hour apart must be.
  const keys = server.requests.map((r) => r.headers.get("idempotency-key"));
  expect(new Set(keys).size).toBe(3);
  const sent = () => server!.requests.flatMap((r) => (JSON.parse(r.body) as { documents: Array<{ idempotency_key?: string }> }).documents);
  expect(sent().some((d) => d.idempotency_key !== undefined)).toBe(false);
  await client.dte.batchAll(documents, { chunkSize: 2 });
  expect(server.requests.slice(3).map((r) => r.headers.get("idempotency-key")).filter((k) => keys.includes(k))).toEqual([]);
});

test("contentKeys: each document keyed by its content and its place among equal ones; replayed ones counted", async () => {
  server = startRecordingServer((req) => {
    const { documents } = JSON.parse(req.body) as { documents: Array<EmitParams & { idempotency_key: string }> };
    // Replays every document whose key ends in -2 (the second of two equal documents), as a server that had it.
    return ok({ results: documents.map((d, index) => ({ index, success: true, data: { id: d.idempotency_key }, ...(d.idempotency_key.endsWith("-2") ? { replayed: true } : {}) })) });
  });
  const client = new Timbre({ baseUrl: server.baseUrl, apiKey: "sk_test_x" });
  const documents = [boleta("a"), boleta("b"), boleta("a"), { ...boleta("c"), idempotency_key: "mine" }];
  const first = await client.dte.batchAll(documents, { chunkSize: 3, contentKeys: true });
  const ids = first.results.map((r) => r.data?.id as string);
  expect(ids[0]).toMatch(/^doc-[0-9a-f]{40}-1$/);
  expect(ids[2]).toBe(ids[0]!.replace(/-1$/, "-2"));
  expect(ids[1]).not.toBe(ids[0]);
  expect(ids[3]).toBe("mine");
  expect([first.requests, first.replayed]).toEqual([2, 1]);
  // The same documents built in another key order, in another list: the same keys.
  const reordered = documents.map((d) => Object.fromEntries(Object.entries(d).reverse()) as typeof d);
  const again = await client.dte.batchAll(reordered, { contentKeys: true });
  expect(again.results.map((r) => r.data?.id)).toEqual(ids);
  // A changed document gets another key; the others keep theirs.
  const changed = await client.dte.batchAll([boleta("a"), boleta("B"), boleta("a"), documents[3]!], { contentKeys: true });
  expect(changed.results.map((r) => r.data?.id === ids[r.index])).toEqual([true, false, true, true]);
});

test("batchPreviewAll: the check endpoint in chunks, results at the documents' positions", async () => {
  server = startRecordingServer((req) => {
    const { documents } = JSON.parse(req.body) as { documents: EmitParams[] };
    return ok({ results: documents.map((_, index) => ({ index, success: true, data: { totals: { monto_total: index } } })) });
  });
  const client = new Timbre({ baseUrl: server.baseUrl, apiKey: "sk_test_x" });
  const { results } = await client.dte.batchPreviewAll(["a", "b", "c"].map(boleta), { chunkSize: 2 });
  expect(server.requests.map((r) => r.path)).toEqual(["/v1/dte/batch/preview", "/v1/dte/batch/preview"]);
  expect(results.map((r) => [r.index, r.data?.totals.monto_total])).toEqual([[0, 0], [1, 1], [2, 0]]);
});
