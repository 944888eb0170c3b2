import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { verifyDte } from "@timbre/core/signature";
import { decodeLatin1 } from "@timbre/core/xml";
import { documentHistory, documents } from "../../db/documents.js";
import { idempotencyKeys } from "../../db/idempotency-keys.js";
import { numerations } from "../../db/numerations.js";
import { rowsOf } from "../../db/rows.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter, issueFolios } from "../../../test/support/emission.js";
import type { BusinessScope } from "../../http/auth.js";
import type { IdempotencyRecord } from "../../http/idempotency.js";
import { createDocuments, type DocumentToCreate } from "./create-document.js";
import { prepareEmission } from "./prepare-emission.js";

/**
 * A round whose folios were all forecast is stored in one statement, without a transaction of its own
 * (`store-forecast-round.ts`); a group whose forecast no longer holds is created the general way. Transactions are
 * counted through `deps.db.transaction`.
 */
describeDrivers("a forecast round stored in one statement", (driver) => {
  let h: Harness;
  let scope: BusinessScope;
  let apiKey: string;
  let transactions = 0;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", RATE_LIMIT_PER_MINUTE: "100000" });
    const t = await emitter(h, { tipos: [33, 34, 39], cantidad: 60 });
    apiKey = t.key.key;
    scope = { userId: t.user.userId, businessId: t.business.id, environment: "test" };
    const db = h.deps.db;
    const transaction = db.transaction.bind(db);
    db.transaction = ((...args: Parameters<typeof transaction>) => {
      transactions++;
      return transaction(...args);
    }) as typeof db.transaction;
  }, 60_000);
  afterAll(async () => h?.close());

  const entry = async (tipo: number, idempotency: IdempotencyRecord | IdempotencyRecord[] = null): Promise<DocumentToCreate> => ({ scope, prepared: await prepareEmission(h.deps, scope, emitBody(tipo)), idempotency });

  /** Creates the entries; the documents (in entry order) and how many transactions that took. */
  const round = async (entries: DocumentToCreate[], upload = false) => {
    const before = transactions;
    const created = await createDocuments(h.deps, entries, { upload });
    const ids = created.map((c) => {
      if (!c.ok) throw c.error;
      return c.row.id;
    });
    const rows = await h.deps.db.select().from(documents).where(inArray(documents.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const docs = ids.map((id) => byId.get(id)!);
    for (const [i, doc] of docs.entries()) {
      const xml = decodeLatin1(new Uint8Array(doc.xml));
      expect(doc.tipo).toBe(entries[i]!.prepared.input.tipo);
      expect(xml).toContain(`<Folio>${doc.folio}</Folio>`);
      expect(xml).toContain(`<F>${doc.folio}</F>`);
      expect(verifyDte(new Uint8Array(doc.xml)).valid).toBe(true);
      // What the caller got is what was stored.
      // (an upload already under way may have moved the stored row on: its own fields are left out then)
      const returned = (created[i] as { row: typeof doc }).row;
      const moved = upload ? { estado: undefined, trackId: undefined, updatedAt: undefined, nextCheckAt: undefined, sii: undefined } : {};
      expect({ ...returned, xml: undefined, ...moved }).toEqual({ ...doc, xml: undefined, ...moved });
    }
    const history = await h.deps.db.select().from(documentHistory).where(inArray(documentHistory.documentId, ids));
    // each document's first row (an upload under way may already have added ENVIADO)
    expect(history.filter((r) => !upload || r.estado === "PENDIENTE").map((r) => [r.documentId, r.estado, r.detalle]).sort()).toEqual(ids.map((id) => [id, "PENDIENTE", "firmado, pendiente de envío al SII"]).sort());
    return { docs, created, transactions: transactions - before };
  };

  const folios = (docs: Array<{ folio: number }>) => docs.map((d) => d.folio);
  const siguiente = async (tipo: number) => {
    const rows = await h.deps.db.select({ siguiente: numerations.siguiente }).from(numerations).where(and(eq(numerations.businessId, scope.businessId), eq(numerations.tipo, tipo))).orderBy(asc(numerations.desde));
    return rows.map((r) => r.siguiente);
  };

  test("forecast right: no transaction, the folios that follow, the ranges' counters moved", async () => {
    const first = await round([await entry(33), await entry(39), await entry(33)]);
    expect(first.transactions).toBe(1); // nothing forecast yet
    const second = await round([await entry(39), await entry(33), await entry(33), await entry(39)]);
    expect(second.transactions).toBe(0);
    const last33 = Math.max(...first.docs.filter((d) => d.tipo === 33).map((d) => d.folio));
    const last39 = Math.max(...first.docs.filter((d) => d.tipo === 39).map((d) => d.folio));
    expect(folios(second.docs)).toEqual([last39 + 1, last33 + 1, last33 + 2, last39 + 2]);
    expect(await siguiente(33)).toEqual([last33 + 3]);
    expect(await siguiente(39)).toEqual([last39 + 3]);
  }, 60_000);

  test("one group's folios taken elsewhere: that group is created the general way, the other in the statement", async () => {
    const warm = await round([await entry(33), await entry(39)]);
    const [next33, next39] = [warm.docs[0]!.folio + 1, warm.docs[1]!.folio + 1];
    await h.deps.db.execute(sql`update numerations set siguiente = siguiente + 2 where business_id = ${scope.businessId} and tipo = 39`);
    const mixed = await round([await entry(33), await entry(39), await entry(33)]);
    expect(mixed.transactions).toBe(1); // the 39 alone
    expect(folios(mixed.docs)).toEqual([next33, next39 + 2, next33 + 1]);
    const after = await round([await entry(39), await entry(33)]);
    expect(after.transactions).toBe(0); // the forecast learnt where 39's range is
    expect(folios(after.docs)).toEqual([next39 + 3, next33 + 2]);
  }, 60_000);

  test("an older range appears: the forecast of the newer one does not hold, the older one is used first", async () => {
    const warm = await round([await entry(33)]);
    await round([await entry(33)]);
    await issueFolios(h, apiKey, 33, 20);
    // Make the new range the older one (authorised earlier): allocation takes the oldest range first.
    const ranges = await h.deps.db.select({ id: numerations.id, desde: numerations.desde }).from(numerations).where(and(eq(numerations.businessId, scope.businessId), eq(numerations.tipo, 33))).orderBy(asc(numerations.desde));
    const newer = ranges.at(-1)!;
    expect(newer.desde).toBeGreaterThan(warm.docs[0]!.folio);
    await h.deps.db.update(numerations).set({ fechaAutorizacion: "2020-01-01" }).where(eq(numerations.id, newer.id));
    const next = await round([await entry(33), await entry(33)]);
    expect(next.transactions).toBe(1);
    expect(folios(next.docs)).toEqual([newer.desde, newer.desde + 1]);
  }, 60_000);

  test("Idempotency-Key links are written with the documents, a batch's items appended in order", async () => {
    await round([await entry(33)]); // the forecast is warm
    const keys = ["one", "batch"].map((key) => ({ scope: `test:${scope.businessId}`, key: `${key}-${driver}`, requestHash: "h", expiresAt: new Date(Date.now() + 3_600_000) }));
    await h.deps.db.insert(idempotencyKeys).values(keys);
    const [one, batch] = keys as [(typeof keys)[number], (typeof keys)[number]];
    const linked = await round([
      await entry(33, { scope: one.scope, key: one.key }),
      await entry(33, { scope: batch.scope, key: batch.key, batchIndex: 1 }),
      await entry(33, { scope: batch.scope, key: batch.key, batchIndex: 0 }),
    ]);
    expect(linked.transactions).toBe(0);
    const stored = await h.deps.db.select({ key: idempotencyKeys.key, resourceId: idempotencyKeys.resourceId }).from(idempotencyKeys).where(inArray(idempotencyKeys.key, [one.key, batch.key]));
    const byKey = new Map(stored.map((r) => [r.key, r.resourceId]));
    const [a, b, c] = linked.docs as unknown as [{ id: string }, { id: string }, { id: string }];
    expect(byKey.get(one.key)).toBe(a.id);
    expect(byKey.get(batch.key)).toBe(`batch:,0=${c.id},1=${b.id}`);
  }, 60_000);

  test("an emission round stores its envelopes with its documents and uploads them; one whose run failed is not stored", async () => {
    await round([await entry(33), await entry(34), await entry(39)]); // the forecast is warm
    // The round's two envelopes are signed at once (`dispatch/round-envelopes.ts`), not one after the other.
    const signer = h.deps.signer;
    let signing = 0;
    let most = 0;
    h.deps.signer = {
      ...signer,
      sign: (jobs) => signer.sign(jobs),
      close: () => signer.close(),
      signEnvelope: async (options) => {
        most = Math.max(most, ++signing);
        try {
          return await signer.signEnvelope(options);
        } finally {
          signing--;
        }
      },
    };
    const whole = await round([await entry(33), await entry(39), await entry(33)], true).finally(() => (h.deps.signer = signer));
    expect(most).toBe(2);
    expect(whole.transactions).toBe(0);
    // 33s in one EnvioDTE, the 39 in an EnvioBOLETA, each uploaded by the round.
    const envelopeOf = whole.docs.map((d) => d.envelopeId);
    expect(envelopeOf[0]).not.toBeNull();
    expect(envelopeOf[2]).toBe(envelopeOf[0]!);
    expect(envelopeOf[1]).not.toBeNull();
    expect(envelopeOf[1]).not.toBe(envelopeOf[0]!);
    const outcomes = await Promise.all(whole.created.map((c) => (c.ok ? c.upload : undefined)));
    expect(outcomes.map((o) => o?.estado)).toEqual(["ENVIADO", "ENVIADO", "ENVIADO"]);
    const sent = await h.deps.db.select({ id: documents.id, estado: documents.estado, envelopeId: documents.envelopeId, trackId: documents.trackId }).from(documents).where(inArray(documents.id, whole.docs.map((d) => d.id)));
    for (const row of sent) {
      expect(row.estado).toBe("ENVIADO");
      expect(row.trackId).not.toBeNull();
      expect(row.envelopeId).toBe(whole.docs.find((d) => d.id === row.id)!.envelopeId);
    }
    // The envelope kept is the one uploaded: it holds the document's exact bytes.
    const envio = await h.call("GET", `/v1/dte/${whole.docs[0]!.id}/xml?envio=true`, { key: apiKey });
    expect(envio.status).toBe(200);
    expect(envio.text).toContain("<EnvioDTE");
    expect(envio.text).toContain(`<Folio>${whole.docs[2]!.folio}</Folio>`);

    // 34's folios taken elsewhere: the EnvioDTE would carry a 34 signed with a folio it will not have — not stored;
    // the 33 is stored without an envelope (the general path uploads it), the EnvioBOLETA goes as before.
    await h.deps.db.execute(sql`update numerations set siguiente = siguiente + 1 where business_id = ${scope.businessId} and tipo = 34`);
    const mixed = await round([await entry(33), await entry(34), await entry(39)], true);
    expect(mixed.transactions).toBe(1);
    expect(mixed.docs.map((d) => d.envelopeId === null)).toEqual([true, true, false]);
    expect(mixed.created.map((c) => c.ok && c.upload !== undefined)).toEqual([false, false, true]);
    expect((await (mixed.created[2] as { upload: Promise<{ estado: string }> }).upload).estado).toBe("ENVIADO");
    const orphans = rowsOf<{ n: number }>(await h.deps.db.execute(sql`select count(*)::int as n from envelopes e where not exists (select 1 from documents d where d.envelope_id = e.id)`));
    expect(Number(orphans[0]?.n)).toBe(0);
  }, 60_000);
});
