import { afterAll, beforeAll, expect, test } from "bun:test";
import { sandboxCaf } from "../../../test/support/cafs.js";
import { tenant } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { chileToday } from "../../time.js";
import { allocateFolio, allocateFolios, loadCaf } from "./allocate-folio.js";

describeDrivers("allocateFolio", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof tenant>>;
  let today: string;
  beforeAll(async () => {
    h = await createHarness(driver);
    t = await tenant(h);
    today = chileToday(new Date());
  }, 60_000);
  afterAll(async () => h?.close());

  const upload = async (tipo: number, desde: number, hasta: number, fechaAutorizacion = today) => {
    const res = await h.call("POST", `/v1/businesses/${t.business.id}/numerations`, {
      key: t.key.key,
      body: { caf_xml: await sandboxCaf(h, { tipo, desde, hasta, fechaAutorizacion }) },
    });
    expect(res.status).toBe(201);
    return res.json.data.id as string;
  };
  const allocate = (tipo: number, environment: "test" | "live" = "test") =>
    h.deps.db.transaction((tx) => allocateFolio(tx, h.deps, { businessId: t.business.id, environment, tipo, today }));

  test("200 concurrent allocations, each in its own transaction: 200 distinct contiguous folios across two ranges", async () => {
    const older = await upload(33, 1, 50, chileToday(new Date(Date.now() - 2 * 86_400_000)));
    const newer = await upload(33, 51, 1000, today);
    const results = await Promise.all(Array.from({ length: 200 }, () => allocate(33)));
    const folios = results.map((r) => r.folio).sort((a, b) => a - b);
    expect(folios).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const r of results) expect(r.numerationId).toBe(r.folio <= 50 ? older : newer);
    const a = await h.call("GET", `/v1/numerations/${older}`, { key: t.key.key });
    expect(a.json.data).toMatchObject({ siguiente_folio: 51, disponibles: 0, usados: 50, estado: "agotada" });
    const b = await h.call("GET", `/v1/numerations/${newer}`, { key: t.key.key });
    expect(b.json.data).toMatchObject({ siguiente_folio: 201, disponibles: 800, usados: 150, estado: "activa" });
  }, 60_000);

  test("expired ranges are skipped even when older; the CAF comes with the folio (with its private key)", async () => {
    await upload(56, 1, 10, "2025-01-10");
    const live = await upload(56, 11, 20);
    const got = await allocate(56);
    expect(got).toMatchObject({ numerationId: live, folio: 11 });
    expect(got.caf).toMatchObject({ tipo: 56, desde: 11, hasta: 20, rut: "76192083-9" });
    expect(got.caf.privateKey.asymmetricKeyType).toBe("rsa");
    expect(await loadCaf(h.deps, live)).toBe(got.caf);
  });

  test("range boundary: when range A ends allocation continues in B; then FOLIOS_EXHAUSTED; other tipos and environments untouched", async () => {
    await upload(61, 1, 2);
    await upload(61, 10, 11);
    const folios = [];
    for (let i = 0; i < 4; i++) folios.push((await allocate(61)).folio);
    expect(folios).toEqual([1, 2, 10, 11]);
    const exhausted = await allocate(61).catch((error: unknown) => error);
    expect(exhausted).toMatchObject({ apiCode: "FOLIOS_EXHAUSTED", details: { tipo: 61, environment: "test" } });
    await expect(allocate(34)).rejects.toMatchObject({ apiCode: "FOLIOS_EXHAUSTED" });
    await expect(allocate(61, "live")).rejects.toMatchObject({ apiCode: "FOLIOS_EXHAUSTED" });
    const list = await h.call("GET", `/v1/businesses/${t.business.id}/numerations?tipo=61&estado=agotada`, { key: t.key.key });
    expect(list.json.pagination.total).toBe(2);
  });

  test("a rolled back transaction gives its folio back", async () => {
    await upload(39, 1, 100);
    await h.deps.db
      .transaction(async (tx) => {
        await allocateFolio(tx, h.deps, { businessId: t.business.id, environment: "test", tipo: 39, today });
        throw new Error("rollback");
      })
      .catch(() => {});
    expect((await allocate(39)).folio).toBe(1);
  });

  test("many folios at once: runs across ranges in FA order, then fewer than asked when the ranges run out", async () => {
    const older = await upload(34, 5, 7, chileToday(new Date(Date.now() - 86_400_000)));
    const newer = await upload(34, 20, 29);
    const take = (count: number) => h.deps.db.transaction((tx) => allocateFolios(tx, h.deps, { businessId: t.business.id, environment: "test", tipo: 34, today, count }));
    const first = await take(5);
    expect(first.map(({ numerationId, first, count }) => ({ numerationId, first, count }))).toEqual([
      { numerationId: older, first: 5, count: 3 },
      { numerationId: newer, first: 20, count: 2 },
    ]);
    expect(first[0]?.caf).toMatchObject({ tipo: 34, desde: 5, hasta: 7 });
    const a = await h.call("GET", `/v1/numerations/${older}`, { key: t.key.key });
    expect(a.json.data).toMatchObject({ estado: "agotada", disponibles: 0 });
    // 8 left in the newer range: asking for 10 gives those 8 and no error (the caller decides)
    const rest = await take(10);
    expect(rest.map(({ first, count }) => [first, count])).toEqual([[22, 8]]);
    expect(await take(1)).toEqual([]);
    const b = await h.call("GET", `/v1/numerations/${newer}`, { key: t.key.key });
    expect(b.json.data).toMatchObject({ siguiente_folio: 30, estado: "agotada", disponibles: 0 });
  });

  test("concurrent multi-folio allocations never overlap", async () => {
    await upload(41, 1, 500);
    const takes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.deps.db.transaction((tx) => allocateFolios(tx, h.deps, { businessId: t.business.id, environment: "test", tipo: 41, today, count: 1 + (i % 7) })),
      ),
    );
    const folios = takes.flat().flatMap((run) => Array.from({ length: run.count }, (_, k) => run.first + k)).sort((x, y) => x - y);
    const expected = Array.from({ length: 20 }, (_, i) => 1 + (i % 7)).reduce((s, n) => s + n, 0);
    expect(folios).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
  }, 60_000);

  test("loadCaf of an unknown numeration is 404", async () => {
    await expect(loadCaf(h.deps, "caf_unknown")).rejects.toMatchObject({ apiCode: "NOT_FOUND" });
  });
});
