import { afterAll, beforeAll, expect, spyOn, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { SiiClient } from "@timbre/sii";
import { documentHistory, documents } from "../db/documents.js";
import { emitBody, emitter } from "../../test/support/emission.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { defaultDocumentEngine } from "./default-document-engine.js";
import { createStatusPoller } from "./poll-status.js";

describeDrivers("status poller: the documents of one envelope share its status query", (driver) => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    key = (await emitter(h, { tipos: [33] })).key.key;
  }, 60_000);
  afterAll(async () => h?.close());

  test("a batch of 3 in one envelope: one QueryEstUp for the three, all ACEPTADO", async () => {
    const res = await h.call("POST", "/v1/dte/batch", { key, body: { documents: [emitBody(33), emitBody(33), emitBody(33)] } });
    expect(res.status).toBe(200);
    const ids: string[] = res.json.data.results.map((r: { data: { id: string } }) => r.data.id);
    const rows = await h.deps.db.select().from(documents).where(inArray(documents.id, ids));
    expect(new Set(rows.map((r) => r.trackId)).size).toBe(1);
    expect(rows.every((r) => r.estado === "ENVIADO")).toBe(true);
    await h.deps.db.update(documents).set({ nextCheckAt: new Date(Date.now() - 1000) }).where(inArray(documents.id, ids));
    const spy = spyOn(SiiClient.prototype, "getUploadStatus");
    try {
      await createStatusPoller(h.deps, defaultDocumentEngine).tick();
      expect(spy.mock.calls.length).toBe(1);
    } finally {
      spy.mockRestore();
    }
    const after = await h.deps.db.select().from(documents).where(inArray(documents.id, ids));
    expect(after.map((r) => r.estado)).toEqual(["ACEPTADO", "ACEPTADO", "ACEPTADO"]);
    expect(after.every((r) => r.nextCheckAt === null && r.sii?.estado_envio === "EPR")).toBe(true);
    // Applied together, each with its own history row.
    const history = await h.deps.db.select().from(documentHistory).where(and(inArray(documentHistory.documentId, ids), eq(documentHistory.estado, "ACEPTADO")));
    expect(history.map((r) => r.documentId).sort()).toEqual([...ids].sort());
  }, 30_000);
});
