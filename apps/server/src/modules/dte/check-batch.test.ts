// POST /v1/dte/batch/preview (extension): what a batch would answer per document — validation, certificate, folios —
// with each valid document's totals, taking no folio and storing nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { documents } from "../../db/documents.js";
import { expectError, tenant } from "../../../test/support/fixtures.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, issueFolios, uploadCertificate } from "../../../test/support/emission.js";

interface Checked {
  index: number;
  success: boolean;
  data?: { totals: { monto_total: number } };
  error?: { code: string; details?: { field?: string } };
}

describeDrivers("batch check", (driver) => {
  let h: Harness;
  let key: string;
  let businessId: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", RATE_LIMIT_PER_MINUTE: "1000" });
    const t = await tenant(h);
    key = t.key.key;
    businessId = t.business.id;
    await uploadCertificate(h, businessId, key);
    await issueFolios(h, key, 33, 100);
    await issueFolios(h, key, 39, 3);
  }, 60_000);
  afterAll(async () => h?.close());

  const documentCount = async () => Number((await h.deps.db.select({ n: count() }).from(documents))[0]?.n ?? 0);
  const free = async () => {
    const res = await h.call("GET", `/v1/businesses/${businessId}/numerations`, { key });
    return (res.json.data as Array<{ tipo: number; disponibles: number }>).map((n) => `${n.tipo}:${n.disponibles}`).sort();
  };

  test("per document: totals as /dte/preview computes them, every validation error, and the folios that would run out", async () => {
    const [documentsBefore, freeBefore] = [await documentCount(), await free()];
    const bodies = [emitBody(33), emitBody(33, { receptor: { rut: "76192083-8", razon_social: "X", giro: "g", direccion: "d", comuna: "c" } }), ...Array.from({ length: 4 }, () => emitBody(39))];
    const res = await h.call("POST", "/v1/dte/batch/preview", { key, body: { documents: bodies } });
    expect(res.status).toBe(200);
    const results = res.json.data.results as Checked[];
    expect(results.map((r) => [r.index, r.success, r.error?.code ?? null])).toEqual([
      [0, true, null],
      [1, false, "VALIDATION_ERROR"],
      [2, true, null],
      [3, true, null],
      [4, true, null],
      [5, false, "FOLIOS_EXHAUSTED"], // three boleta folios for four boletas
    ]);
    expect(results[1]?.error?.details?.field).toBe("receptor.rut");
    const preview = await h.call("POST", "/v1/dte/preview", { key, body: emitBody(33) });
    expect(results[0]?.data?.totals).toEqual(preview.json.data.totals);
    expect(await documentCount()).toBe(documentsBefore);
    expect(await free()).toEqual(freeBefore);

    // and the batch itself then answers the same
    const emitted = await h.call("POST", "/v1/dte/batch", { key, body: { documents: bodies } });
    expect((emitted.json.data.results as Checked[]).map((r) => r.error?.code ?? null)).toEqual([null, "VALIDATION_ERROR", null, null, null, "FOLIOS_EXHAUSTED"]);
  }, 60_000);

  test("a business without a certificate: each document says so, as the batch would", async () => {
    const t = await tenant(h, "96790240-3");
    await issueFolios(h, t.key.key, 39, 10);
    const res = await h.call("POST", "/v1/dte/batch/preview", { key: t.key.key, body: { documents: [emitBody(39), emitBody(39)] } });
    expect((res.json.data.results as Checked[]).map((r) => r.error?.code)).toEqual(["CERTIFICATE_REQUIRED", "CERTIFICATE_REQUIRED"]);
  });

  test("the batch's own limits: 1–500 documents", async () => {
    expectError(await h.call("POST", "/v1/dte/batch/preview", { key, body: { documents: [] } }), 422, "VALIDATION_ERROR");
    expectError(await h.call("POST", "/v1/dte/batch/preview", { key, body: { documents: Array.from({ length: 501 }, () => emitBody(39)) } }), 422, "VALIDATION_ERROR");
  });
});
