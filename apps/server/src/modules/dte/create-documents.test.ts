import { afterAll, beforeAll, expect, test } from "bun:test";
import { inArray, sql } from "drizzle-orm";
import { documents } from "../../db/documents.js";
import { rowsOf } from "../../db/rows.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter } from "../../../test/support/emission.js";
import type { BusinessScope } from "../../http/auth.js";
import { createDocuments, type DocumentToCreate } from "./create-document.js";
import { prepareEmission } from "./prepare-emission.js";

describeDrivers("documents created together (one transaction for many)", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  let scope: BusinessScope;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", RATE_LIMIT_PER_MINUTE: "100000" });
    t = await emitter(h, { tipos: [33, 39, 61], cantidad: 300 });
    scope = { userId: t.user.userId, businessId: t.business.id, environment: "test" };
  }, 60_000);
  afterAll(async () => h?.close());

  /** The transaction that inserted each row (rows inserted by one transaction share it). */
  const insertingTransactions = async (ids: string[]) => {
    const result = await h.deps.db.execute(sql`select xmin::text as tx from documents where id in ${ids}`);
    return new Set(rowsOf<{ tx: string }>(result).map((r) => r.tx));
  };
  const entry = async (body: Record<string, unknown>): Promise<DocumentToCreate> => ({ scope, prepared: await prepareEmission(h.deps, scope, body), idempotency: null });

  test("30 concurrent emissions share transactions: 201 each, 30 contiguous folios, fewer transactions than documents", async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33) })));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 30 }, () => 201));
    const ids = answers.map((a) => a.json.data.id as string);
    const folios = answers.map((a) => a.json.data.folio as number).sort((x, y) => x - y);
    const first = folios[0] as number;
    expect(folios).toEqual(Array.from({ length: 30 }, (_, i) => first + i));
    expect((await insertingTransactions(ids)).size).toBeLessThan(30);
    // each answer is its own document, as stored
    const rows = await h.deps.db.select({ id: documents.id, folio: documents.folio }).from(documents).where(inArray(documents.id, ids));
    expect(new Map(rows.map((r) => [r.id, r.folio]))).toEqual(new Map(answers.map((a) => [a.json.data.id, a.json.data.folio])));
  }, 60_000);

  test("one transaction for a round; a tipo without folios fails alone (FOLIOS_EXHAUSTED) and takes nothing from the others", async () => {
    const entries = [await entry(emitBody(33)), await entry(emitBody(39)), await entry(emitBody(34)), await entry(emitBody(33))];
    const created = await createDocuments(h.deps, entries);
    expect(created.map((c) => c.ok)).toEqual([true, true, false, true]);
    const failed = created[2];
    expect(failed?.ok === false && failed.error).toMatchObject({ apiCode: "FOLIOS_EXHAUSTED", details: { tipo: 34 } });
    const rows = created.flatMap((c) => (c.ok ? [c.row] : []));
    const [a, , b] = rows;
    expect(b?.folio).toBe((a?.folio ?? 0) + 1); // the two 33s: consecutive, in entry order
    // 34 made the shared transaction fail, so each document went again on its own: three transactions, no folio lost
    expect((await insertingTransactions(rows.map((r) => r.id))).size).toBe(3);
    const together = await createDocuments(h.deps, [await entry(emitBody(33)), await entry(emitBody(39)), await entry(emitBody(33))]);
    const ids = together.flatMap((c) => (c.ok ? [c.row.id] : []));
    expect(ids).toHaveLength(3);
    expect((await insertingTransactions(ids)).size).toBe(1);
    const numbering = await h.call("GET", `/v1/businesses/${t.business.id}/numerations?tipo=33`, { key: t.key.key });
    const range = numbering.json.data[0];
    const stored = await h.deps.db.execute(sql`select count(*)::int as n, max(folio) as max from documents where business_id = ${t.business.id} and tipo = 33`);
    const [{ n, max }] = rowsOf<{ n: number; max: number }>(stored) as [{ n: number; max: number }];
    // no gap: every folio handed out belongs to a stored document
    expect(range.siguiente_folio - 1).toBe(Number(max));
    expect(Number(n)).toBe(range.siguiente_folio - range.desde);
  }, 60_000);

  test("two annulments of one document in one round: one credit note, the other REFERENCE_INVALID already_annulled", async () => {
    const original = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33) });
    expect(original.status).toBe(201);
    const note = emitBody(61, { referencia: { tipo_doc: 33, folio: original.json.data.folio, fecha: original.json.data.fecha, razon: "Anula", codigo: 1 } });
    const created = await createDocuments(h.deps, [await entry(note), await entry(emitBody(39)), await entry(note)]);
    expect(created.map((c) => c.ok)).toEqual([true, true, false]);
    const failed = created[2];
    expect(failed?.ok === false && failed.error).toMatchObject({ apiCode: "REFERENCE_INVALID", details: { reason: "already_annulled" } });
  }, 60_000);
});
