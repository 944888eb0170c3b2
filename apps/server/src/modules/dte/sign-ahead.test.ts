import { afterAll, beforeAll, expect, test } from "bun:test";
import { inArray, sql } from "drizzle-orm";
import { verifyDte } from "@timbre/core/signature";
import { decodeLatin1 } from "@timbre/core/xml";
import { documents } from "../../db/documents.js";
import type { DocumentSigner } from "../../signing/document-signer.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter } from "../../../test/support/emission.js";
import type { BusinessScope } from "../../http/auth.js";
import { createDocuments, signOnArrival, type DocumentToCreate } from "./create-document.js";
import { commitDocument } from "./emission-committer.js";
import { prepareEmission } from "./prepare-emission.js";

/**
 * Rounds sign ahead of the ranges' row locks with forecast folios (`numerations/folio-forecast.ts`) and keep a
 * signature only when the folio it carries is the one the database gave: counted here through the signer.
 */
describeDrivers("signing ahead with forecast folios", (driver) => {
  let h: Harness;
  let scope: BusinessScope;
  let signed = 0;
  /** Calls of the signer, by the number of jobs they carried. */
  const calls: number[] = [];
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", RATE_LIMIT_PER_MINUTE: "100000" });
    const t = await emitter(h, { tipos: [33], cantidad: 100 });
    scope = { userId: t.user.userId, businessId: t.business.id, environment: "test" };
    const inner = h.deps.signer;
    const counting: DocumentSigner = {
      sign: (jobs) => {
        signed += jobs.length;
        calls.push(jobs.length);
        return inner.sign(jobs);
      },
      signEnvelope: (options) => inner.signEnvelope(options),
      close: () => inner.close(),
    };
    h.deps.signer = counting;
  }, 60_000);
  afterAll(async () => h?.close());

  const prepare = async (count: number) => {
    const entries: DocumentToCreate[] = [];
    for (let i = 0; i < count; i++) entries.push({ scope, prepared: await prepareEmission(h.deps, scope, emitBody(33)), idempotency: null });
    return entries;
  };

  const round = async (count: number, before = signed, entries?: DocumentToCreate[]) => {
    const created = await createDocuments(h.deps, entries ?? (await prepare(count)));
    return stored(
      before,
      created.map((c) => {
        if (!c.ok) throw c.error;
        return c.row.id;
      }),
    );
  };

  const stored = async (before: number, ids: string[]) => {
    const rows = await h.deps.db.select({ id: documents.id, folio: documents.folio, xml: documents.xml }).from(documents).where(inArray(documents.id, ids));
    // Whatever was signed when: each stored document carries its own folio, in its data and its timbre, and verifies.
    for (const row of rows) {
      const xml = decodeLatin1(new Uint8Array(row.xml));
      expect(xml).toContain(`<Folio>${row.folio}</Folio>`);
      expect(xml).toContain(`<F>${row.folio}</F>`);
      expect(verifyDte(new Uint8Array(row.xml)).valid).toBe(true);
    }
    return { signatures: signed - before, folios: rows.map((r) => r.folio).sort((a, b) => a - b) };
  };

  test("the first round signs once; the next rounds, forecast right, still sign each document once", async () => {
    const first = await round(3);
    expect(first.signatures).toBe(3);
    const second = await round(4);
    expect(second.signatures).toBe(4);
    expect(second.folios).toEqual([1, 2, 3, 4].map((k) => (first.folios[2] as number) + k));
    const third = await round(2);
    expect(third.signatures).toBe(2);
    expect(third.folios[0]).toBe((second.folios[3] as number) + 1);
  }, 60_000);

  test("folios taken elsewhere meanwhile: the round signs again under the lock, with the folios it was given", async () => {
    const last = await round(1);
    // Another process emits 3 documents of the range (its folio counter moves; our forecast does not know).
    await h.deps.db.execute(sql`update numerations set siguiente = siguiente + 3 where business_id = ${scope.businessId} and tipo = 33`);
    const after = await round(2);
    expect(after.signatures).toBe(4); // 2 ahead with the forecast folios, then 2 again
    expect(after.folios).toEqual([(last.folios[0] as number) + 4, (last.folios[0] as number) + 5]);
    const next = await round(2); // the forecast learnt where the range is
    expect(next.signatures).toBe(2);
    expect(next.folios[0]).toBe((after.folios[1] as number) + 1);
  }, 60_000);

  test("emissions are signed as they join a round, once each, and stored with the folios they were signed with", async () => {
    const last = await round(1); // the forecast knows the range
    const entries = await prepare(10);
    const [signedBefore, callsBefore] = [signed, calls.length];
    const committed = await Promise.all(entries.map((entry) => commitDocument(h.deps, entry)));
    await Promise.all(committed.map((c) => c.upload));
    const after = await stored(signedBefore, committed.map((c) => c.row.id));
    expect(after.signatures).toBe(10);
    // One call per document, made as it arrived — not one call for the round when the round started.
    expect(calls.slice(callsBefore)).toEqual(new Array(10).fill(1));
    expect(after.folios).toEqual(Array.from({ length: 10 }, (_, k) => (last.folios[0] as number) + 1 + k));
  }, 60_000);

  /** `count` documents signed on arrival after a round whose last folio is `last`; then `taken` folios taken elsewhere. */
  const signedOnArrival = async (count: number, taken: number) => {
    const last = (await round(1)).folios[0] as number;
    const entries = await prepare(count);
    const before = signed;
    for (const entry of entries) signOnArrival(h.deps, entry);
    expect(entries.map((e) => e.early?.folio.folio)).toEqual(entries.map((_, k) => last + 1 + k));
    await h.deps.db.execute(sql`update numerations set siguiente = siguiente + ${taken} where business_id = ${scope.businessId} and tipo = 33`);
    return { last, entries, before };
  };

  test("folios taken elsewhere after documents were signed on arrival: they are signed again with the folios they are given", async () => {
    const { last, entries, before } = await signedOnArrival(3, 2);
    const after = await round(3, before, entries);
    expect(after.signatures).toBe(6); // 3 on arrival, 3 again under the lock
    expect(after.folios).toEqual([3, 4, 5].map((k) => last + k));
    // Until a round's forecast holds again, an arrival is not signed on its own: its round signs it.
    const [waiting] = await prepare(1);
    signOnArrival(h.deps, waiting as DocumentToCreate);
    expect(waiting?.early).toBeUndefined();
    const next = await round(1, signed, [waiting as DocumentToCreate]); // the forecast learnt where the range is
    expect(next.signatures).toBe(1);
    expect(next.folios[0]).toBe((after.folios[2] as number) + 1);
    const [steady] = await prepare(1);
    signOnArrival(h.deps, steady as DocumentToCreate);
    expect(steady?.early?.folio.folio).toBe((next.folios[0] as number) + 1);
    expect((await round(1, signed, [steady as DocumentToCreate])).folios).toEqual([(next.folios[0] as number) + 1]);
  }, 60_000);

  test("a forecast reset between arrival and round: the early signatures are dropped and the round signs with the folios it forecasts then", async () => {
    // A round in between that did not go as forecast (here: folios taken elsewhere) resets the forecast.
    const { last, entries: early, before } = await signedOnArrival(2, 5);
    const between = await round(1, signed);
    expect(between.folios).toEqual([last + 6]);
    const after = await round(2, before, early);
    // 2 on arrival (dropped) + 2 for the round in between (ahead, then under the lock) + 2 for the round itself.
    expect(after.signatures).toBe(6);
    expect(after.folios).toEqual([7, 8].map((k) => last + k));
  }, 60_000);
});
