// dte.batchAll: any number of documents as batch requests keyed by content, results at the documents' positions.
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

  const keys = server.requests.map((r) => r.headers.get("idempotency-key"));
  expect(keys.every((k) => /^batch-[0-9a-f]{48}$/.test(k ?? ""))).toBe(true);
  expect(new Set(keys).size).toBe(3);
  const again = await client.dte.batchAll(documents, { chunkSize: 2 });
  expect(server.requests.slice(3).map((r) => r.headers.get("idempotency-key"))).toEqual(keys);
  expect([again.requests, again.replayed]).toEqual([3, 0]); // this scripted server never says it replayed
  await client.dte.batchAll(documents, { chunkSize: 2, newKeys: true });
  expect(server.requests.slice(6).map((r) => r.headers.get("idempotency-key")).filter((k) => keys.includes(k))).toEqual([]);
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
