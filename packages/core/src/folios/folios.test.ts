import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isTimbreError } from "../errors/index.js";
import {
  allocateFolio,
  available,
  compareRangesOldestFirst,
  isExhausted,
  isExpired,
  pickRange,
  rangeStatus,
  rangesOverlap,
  usedFolios,
  type FolioRange,
} from "./index.js";

const r = (over: Partial<FolioRange>): FolioRange => ({
  id: "caf_1",
  tipo: 33,
  desde: 1,
  hasta: 100,
  siguiente: 1,
  fechaAutorizacion: "2026-01-15",
  expiresOn: "2026-07-15",
  ...over,
});

describe("counts and status", () => {
  test("examples", () => {
    expect(available(r({ siguiente: 1 }))).toBe(100);
    expect(available(r({ siguiente: 100 }))).toBe(1);
    expect(available(r({ siguiente: 101 }))).toBe(0);
    expect(available(r({ siguiente: 500 }))).toBe(0);
    expect(available(r({ desde: 50, hasta: 60, siguiente: 1 }))).toBe(11);
    expect(usedFolios(r({ siguiente: 11 }))).toBe(10);
    expect(isExhausted(r({ siguiente: 101 }))).toBe(true);
    expect(isExhausted(r({ siguiente: 100 }))).toBe(false);
  });
  test("expiry boundary: expired on expiresOn", () => {
    expect(isExpired(r({}), "2026-07-14")).toBe(false);
    expect(isExpired(r({}), "2026-07-15")).toBe(true);
    expect(isExpired(r({ expiresOn: null }), "2999-01-01")).toBe(false);
  });
  test("rangeStatus table", () => {
    expect(rangeStatus(r({}), "2026-02-01")).toBe("activa");
    expect(rangeStatus(r({}), "2026-07-15")).toBe("vencida");
    expect(rangeStatus(r({ siguiente: 101 }), "2026-02-01")).toBe("agotada");
    expect(rangeStatus(r({ siguiente: 101 }), "2026-08-01")).toBe("agotada");
    expect(rangeStatus(r({ expiresOn: null }), "2099-01-01")).toBe("activa");
  });
  test("rangesOverlap", () => {
    expect(rangesOverlap(r({ desde: 1, hasta: 100 }), r({ desde: 100, hasta: 200 }))).toBe(true);
    expect(rangesOverlap(r({ desde: 1, hasta: 100 }), r({ desde: 101, hasta: 200 }))).toBe(false);
    expect(rangesOverlap(r({ desde: 50, hasta: 60 }), r({ desde: 1, hasta: 100 }))).toBe(true);
    expect(rangesOverlap(r({ tipo: 33 }), r({ tipo: 61 }))).toBe(false);
  });
});

describe("pickRange", () => {
  test("oldest FA first, then lowest desde; skips exhausted, expired and other tipos", () => {
    const ranges = [
      r({ id: "new", desde: 1, hasta: 100, fechaAutorizacion: "2026-02-01", expiresOn: "2026-08-01" }),
      r({ id: "old-high", desde: 500, hasta: 600, siguiente: 500, fechaAutorizacion: "2026-01-10", expiresOn: "2026-07-10" }),
      r({ id: "old-low", desde: 200, hasta: 300, siguiente: 200, fechaAutorizacion: "2026-01-10", expiresOn: "2026-07-10" }),
      r({ id: "older-exhausted", desde: 101, hasta: 150, siguiente: 151, fechaAutorizacion: "2025-12-01", expiresOn: "2026-06-01" }),
      r({ id: "oldest-expired", desde: 700, hasta: 800, siguiente: 700, fechaAutorizacion: "2025-01-01", expiresOn: "2025-07-01" }),
      r({ id: "boleta", tipo: 39, fechaAutorizacion: "2020-01-01", expiresOn: null }),
    ];
    expect(pickRange(ranges, 33, "2026-03-01")?.id).toBe("old-low");
    expect(pickRange(ranges, 39, "2026-03-01")?.id).toBe("boleta");
    expect(pickRange(ranges, 33, "2026-07-10")?.id).toBe("new");
    expect(pickRange(ranges, 33, "2026-08-01")).toBeNull();
    expect(pickRange(ranges, 61, "2026-03-01")).toBeNull();
    expect(pickRange([], 33, "2026-03-01")).toBeNull();
    // a document dated before the newer range's authorisation, after the older ones ran out
    expect(pickRange(ranges.filter((x) => x.id === "new"), 33, "2026-01-31")).toBeNull();
    expect(pickRange(ranges.filter((x) => x.id === "new"), 33, "2026-02-01")?.id).toBe("new");
  });

  test("allocateFolio advances siguiente and throws FOLIOS_EXHAUSTED at the end", () => {
    let ranges = [r({ id: "a", desde: 5, hasta: 6, siguiente: 5 })];
    const first = allocateFolio(ranges, 33, "2026-02-01");
    expect(first.folio).toBe(5);
    ranges = [first.range];
    const second = allocateFolio(ranges, 33, "2026-02-01");
    expect(second.folio).toBe(6);
    expect(second.range.siguiente).toBe(7);
    let err: unknown;
    try {
      allocateFolio([second.range], 33, "2026-02-01");
    } catch (e) {
      err = e;
    }
    expect(isTimbreError(err, "FOLIOS_EXHAUSTED")).toBe(true);
  });

  const dateArb = fc.integer({ min: 0, max: 3650 }).map((d) => new Date(Date.UTC(2020, 0, 1) + d * 86_400_000).toISOString().slice(0, 10));
  const rangeArb = fc
    .record({
      id: fc.string({ minLength: 1, maxLength: 4 }),
      tipo: fc.constantFrom(33, 39, 61),
      desde: fc.integer({ min: 1, max: 10_000 }),
      size: fc.integer({ min: 1, max: 500 }),
      usedPart: fc.integer({ min: 0, max: 600 }),
      fechaAutorizacion: dateArb,
      expiresOn: fc.option(dateArb, { nil: null }),
    })
    .map(({ size, usedPart, ...rest }): FolioRange => ({ ...rest, hasta: rest.desde + size - 1, siguiente: rest.desde + Math.min(usedPart, size) }));

  test("property: available + used = size, both within bounds", () => {
    fc.assert(
      fc.property(rangeArb, (range) => {
        const size = range.hasta - range.desde + 1;
        expect(available(range) + usedFolios(range)).toBe(size);
        expect(available(range)).toBeGreaterThanOrEqual(0);
        expect(available(range)).toBeLessThanOrEqual(size);
      }),
    );
  });

  test("property: the picked range is active, of the tipo, and no other active range of the tipo is older", () => {
    fc.assert(
      fc.property(fc.array(rangeArb, { maxLength: 12 }), fc.constantFrom(33, 39, 61), dateArb, (ranges, tipo, today) => {
        const picked = pickRange(ranges, tipo, today);
        const active = ranges.filter((x) => x.tipo === tipo && rangeStatus(x, today) === "activa" && x.fechaAutorizacion <= today);
        if (active.length === 0) {
          expect(picked).toBeNull();
          return;
        }
        expect(picked).not.toBeNull();
        if (!picked) return;
        expect(picked.tipo).toBe(tipo);
        expect(rangeStatus(picked, today)).toBe("activa");
        for (const other of active) expect(compareRangesOldestFirst(picked, other)).toBeLessThanOrEqual(0);
        expect(pickRange([...ranges].reverse(), tipo, today)).toEqual(picked);
      }),
    );
  });

  test("property: allocating until exhaustion hands out every available folio exactly once", () => {
    fc.assert(
      fc.property(fc.array(rangeArb.map((x) => ({ ...x, expiresOn: null, tipo: 33, hasta: x.desde + ((x.hasta - x.desde) % 40) })), { maxLength: 5 }), (raw) => {
        const ranges = raw.map((x, i) => ({ ...x, id: `r${i}`, desde: x.desde + i * 20_000, hasta: x.hasta + i * 20_000, siguiente: Math.min(x.siguiente, x.hasta + 1) + i * 20_000 }));
        const expected = ranges.reduce((n, x) => n + available(x), 0);
        let state: FolioRange[] = ranges;
        const folios: number[] = [];
        for (;;) {
          let step: ReturnType<typeof allocateFolio>;
          try {
            step = allocateFolio(state, 33, "2099-12-31"); // after every generated authorisation date
          } catch (e) {
            expect(isTimbreError(e, "FOLIOS_EXHAUSTED")).toBe(true);
            break;
          }
          folios.push(step.folio);
          state = state.map((x) => (x.id === step.range.id ? step.range : x));
        }
        expect(folios.length).toBe(expected);
        expect(new Set(folios).size).toBe(folios.length);
        for (const f of folios) expect(ranges.some((x) => f >= x.desde && f <= x.hasta)).toBe(true);
      }),
    );
  });

  test("property: rangesOverlap is symmetric and matches a brute-force check", () => {
    const small = fc.record({ tipo: fc.constantFrom(33, 61), desde: fc.integer({ min: 1, max: 30 }), len: fc.integer({ min: 0, max: 10 }) });
    fc.assert(
      fc.property(small, small, (a0, b0) => {
        const a = { tipo: a0.tipo, desde: a0.desde, hasta: a0.desde + a0.len };
        const b = { tipo: b0.tipo, desde: b0.desde, hasta: b0.desde + b0.len };
        let shared = false;
        for (let f = a.desde; f <= a.hasta; f++) if (f >= b.desde && f <= b.hasta) shared = true;
        expect(rangesOverlap(a, b)).toBe(rangesOverlap(b, a));
        expect(rangesOverlap(a, b)).toBe(a.tipo === b.tipo && shared);
      }),
    );
  });
});
