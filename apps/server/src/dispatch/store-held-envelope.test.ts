import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { documents, envelopes } from "../db/documents.js";
import type { EnvelopeLayout } from "../db/envelope-layout.js";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { emitter, emitWhileSiiRefusesAuthentication } from "../../test/support/emission.js";
import { storeHeldEnvelope } from "./store-held-envelope.js";

describeDrivers("storeHeldEnvelope: claims and stores an envelope in one statement, all or nothing", (driver) => {
  let h: Harness;
  let key: string;
  let businessId: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    const t = await emitter(h, { tipos: [33] });
    key = t.key.key;
    businessId = t.business.id;
  }, 60_000);
  afterAll(() => h?.close());

  /** A document PENDIENTE in no envelope. */
  const pendingDocument = () => emitWhileSiiRefusesAuthentication(h, key, businessId);
  const envelopeIdsOf = async (ids: string[]) =>
    (await h.deps.db.select({ id: documents.id, envelopeId: documents.envelopeId }).from(documents).where(inArray(documents.id, ids))).map((d) => d.envelopeId);
  const group = () => ({ businessId, environment: "test" as const, kind: "EnvioDTE" as const });

  test("one document already in another envelope: nothing is written", async () => {
    const [a, b] = [await pendingDocument(), await pendingDocument()];
    await h.deps.db.update(documents).set({ envelopeId: `env_other_${driver}` }).where(eq(documents.id, b));
    expect(await storeHeldEnvelope(h.deps, group(), [a, b], `env_partial_${driver}`, { xml: new Uint8Array([60, 97, 47, 62]), layout: null })).toBe(false);
    expect(await h.deps.db.select().from(envelopes).where(eq(envelopes.id, `env_partial_${driver}`))).toHaveLength(0);
    expect(await envelopeIdsOf([a])).toEqual([null]);
  });

  test("every document claimable: the envelope is stored `uploading` with its skeleton and layout, and every document points at it", async () => {
    const ids = [await pendingDocument(), await pendingDocument()];
    const xml = new Uint8Array([60, 120, 47, 62, 0xe9]);
    const layout: EnvelopeLayout = [[ids[0] as string, 3, 40, 900], [ids[1] as string, 3, 40, 910]];
    const envelopeId = `env_held_${driver}`;
    expect(await storeHeldEnvelope(h.deps, group(), ids, envelopeId, { xml, layout })).toBe(true);
    const [stored] = await h.deps.db.select().from(envelopes).where(eq(envelopes.id, envelopeId));
    expect(stored?.status).toBe("uploading");
    expect(stored?.businessId).toBe(businessId);
    expect([...(stored?.xml ?? [])]).toEqual([...xml]);
    expect(stored?.layout).toEqual(layout);
    expect(await envelopeIdsOf(ids)).toEqual([envelopeId, envelopeId]);
    // Claimed now: a second envelope for them is refused.
    expect(await storeHeldEnvelope(h.deps, group(), ids, `env_again_${driver}`, { xml, layout: null })).toBe(false);
  });
});
