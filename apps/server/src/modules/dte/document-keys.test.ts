// Per-document idempotency keys in POST /v1/dte/batch and its check (extension, document-keys.ts): a batch sent
// again with some documents fixed emits only what was not emitted before, in the key space of /dte/emit.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { documents } from "../../db/documents.js";
import { idempotencyKeys } from "../../db/idempotency-keys.js";
import { tenant } from "../../../test/support/fixtures.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, issueFolios, uploadCertificate } from "../../../test/support/emission.js";

interface Item {
  index: number;
  success: boolean;
  replayed?: true;
  data?: { id: string; folio: number; tipo: number; estado: string };
  error?: { code: string; details?: { field?: string; reason?: string } };
}

interface Checked {
  index: number;
  success: boolean;
  replayed?: true;
  data?: { totals: { monto_total: number }; document?: { id: string; folio: number; estado: string } };
  error?: { code: string };
}

describeDrivers("per-document idempotency keys in a batch", (driver) => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", RATE_LIMIT_PER_MINUTE: "1000" });
    const t = await tenant(h);
    key = t.key.key;
    await uploadCertificate(h, t.business.id, key);
    await issueFolios(h, key, 33, 100);
    await issueFolios(h, key, 39, 3);
  }, 60_000);
  afterAll(async () => h?.close());

  const documentCount = async () => Number((await h.deps.db.select({ n: count() }).from(documents))[0]?.n ?? 0);
  const batch = async (docs: unknown[]): Promise<Item[]> => {
    const res = await h.call("POST", "/v1/dte/batch", { key, body: { documents: docs } });
    expect(res.status).toBe(200);
    return res.json.data.results;
  };
  const keyed = (k: string, body: Record<string, unknown>) => ({ ...body, idempotency_key: `${driver}-${k}` });

  test("a batch sent again with its bad document fixed emits only that one; the others answer as before, no folio", async () => {
    const bad = { ...emitBody(33), receptor: { rut: "1-1", razon_social: "" } };
    const first = await batch([keyed("a", emitBody(33)), keyed("b", bad), keyed("c", emitBody(33, { observaciones: "c" }))]);
    expect(first.map((r) => r.success)).toEqual([true, false, true]);
    expect(first.some((r) => r.replayed)).toBe(false);
    const n = await documentCount();

    const again = await batch([keyed("a", emitBody(33)), keyed("b", emitBody(33, { observaciones: "b" })), keyed("c", emitBody(33, { observaciones: "c" })), emitBody(33)]);
    expect(again.map((r) => r.success)).toEqual([true, true, true, true]);
    expect(again.map((r) => r.replayed ?? false)).toEqual([true, false, true, false]);
    expect(again[0]?.data?.id).toBe(first[0]?.data?.id as string);
    expect(again[0]?.data?.folio).toBe(first[0]?.data?.folio as number);
    expect(again[2]?.data?.id).toBe(first[2]?.data?.id as string);
    // The failed document had not bound its key: fixed, it is emitted; so is the unkeyed one. Two documents, no more.
    expect(await documentCount()).toBe(n + 2);
    const folios = [...first, ...again].filter((r) => r.success).map((r) => r.data?.folio);
    expect(new Set(folios).size).toBe(4);
  }, 60_000);

  test("document keys and /dte/emit's Idempotency-Key are one key space, both ways", async () => {
    const body = emitBody(33, { observaciones: "emit then batch" });
    const emitted = await h.call("POST", "/v1/dte/emit", { key, body, headers: { "Idempotency-Key": `${driver}-emit-first` } });
    expect(emitted.status).toBe(201);
    const [fromBatch] = await batch([{ ...body, idempotency_key: `${driver}-emit-first` }]);
    expect(fromBatch).toMatchObject({ success: true, replayed: true, data: { id: emitted.json.data.id } });

    const other = emitBody(33, { observaciones: "batch then emit" });
    const [batched] = await batch([keyed("batch-first", other)]);
    expect(batched?.success).toBe(true);
    const n = await documentCount();
    const replay = await h.call("POST", "/v1/dte/emit", { key, body: other, headers: { "Idempotency-Key": `${driver}-batch-first` } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.json.data.id).toBe(batched?.data?.id as string);
    expect(await documentCount()).toBe(n);

    // On /dte/emit the key goes in the header: a body key, ignored like an unknown field, would let a retry emit twice.
    const inBody = await h.call("POST", "/v1/dte/emit", { key, body: { ...other, idempotency_key: `${driver}-batch-first` } });
    expect(inBody.status).toBe(422);
    expect(inBody.json.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "idempotency_key", reason: "not_allowed" } });
    expect(await documentCount()).toBe(n);

    // The same key with another document is refused for that document alone.
    const [reused, fine] = await batch([keyed("batch-first", emitBody(33, { observaciones: "changed" })), emitBody(33)]);
    expect(reused).toMatchObject({ success: false, error: { code: "IDEMPOTENCY_KEY_REUSED" } });
    expect(fine?.success).toBe(true);
  }, 60_000);

  test("a key that /dte/emit answered with an error replays that error in a batch, as the emission would", async () => {
    const factura34 = emitBody(34, { items: [{ nombre: "Asesoría", cantidad: 1, precio: 1000 }] });
    const refused = await h.call("POST", "/v1/dte/emit", { key, body: factura34, headers: { "Idempotency-Key": `${driver}-refused` } });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe("FOLIOS_EXHAUSTED");
    await issueFolios(h, key, 34, 10);
    const [replayed, fresh] = await batch([{ ...factura34, idempotency_key: `${driver}-refused` }, factura34]);
    expect(replayed).toMatchObject({ success: false, error: { code: "FOLIOS_EXHAUSTED" } });
    expect(fresh).toMatchObject({ success: true, data: { tipo: 34 } });
  }, 60_000);

  test("a key repeated in one batch, or malformed, is that document's validation error", async () => {
    const n = await documentCount();
    const results = await batch([keyed("twice", emitBody(33)), keyed("twice", emitBody(33)), { ...emitBody(33), idempotency_key: "" }, { ...emitBody(33), idempotency_key: 7 }]);
    expect(results[0]?.success).toBe(true);
    for (const [i, reason] of [[1, "not_allowed"], [2, "format"], [3, "format"]] as const) {
      expect(results[i]).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", details: { field: "idempotency_key", reason } } });
    }
    expect(await documentCount()).toBe(n + 1);
  }, 60_000);

  test("a key whose batch died after creating its document answers that document, not a second one", async () => {
    const body = keyed("crashed", emitBody(33, { observaciones: "crash" }));
    const [first] = await batch([body]);
    const n = await documentCount();
    // What a process killed between the emission transaction and storing the answers leaves: the key bound to the
    // document, no answer, abandoned.
    await h.deps.db
      .update(idempotencyKeys)
      .set({ responseStatus: null, responseBodyEnc: null, createdAt: new Date(Date.now() - 6 * 60_000) })
      .where(eq(idempotencyKeys.key, body.idempotency_key));
    const [again] = await batch([body]);
    expect(again).toMatchObject({ success: true, replayed: true, data: { id: first?.data?.id } });
    expect(await documentCount()).toBe(n);
  }, 60_000);

  test("the check names the documents emitted before and counts folios only for the others", async () => {
    // 3 boleta folios: two taken by keyed boletas, one left. Key "a" is bound to another document (first test).
    const boletas = [keyed("boleta-1", emitBody(39, { observaciones: "1" })), keyed("boleta-2", emitBody(39, { observaciones: "2" }))];
    const emitted = await batch(boletas);
    expect(emitted.every((r) => r.success)).toBe(true);
    const n = await documentCount();
    const res = await h.call("POST", "/v1/dte/batch/preview", {
      key,
      body: { documents: [...boletas, keyed("boleta-3", emitBody(39, { observaciones: "3" })), emitBody(39, { observaciones: "4" }), keyed("a", emitBody(39, { observaciones: "changed" }))] },
    });
    expect(res.status).toBe(200);
    const checked: Checked[] = res.json.data.results;
    expect(checked.map((r) => (r.success ? (r.replayed ? "replayed" : "ok") : r.error?.code))).toEqual(["replayed", "replayed", "ok", "FOLIOS_EXHAUSTED", "IDEMPOTENCY_KEY_REUSED"]);
    expect(checked[0]?.data?.document).toMatchObject({ id: emitted[0]?.data?.id, folio: emitted[0]?.data?.folio });
    expect(checked[0]?.data?.totals.monto_total).toBeGreaterThan(0);
    expect(await documentCount()).toBe(n);
  }, 60_000);
});
