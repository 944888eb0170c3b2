import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { addMonths, cafExpiresOn, isCafExpired } from "./expiry.js";

describe("addMonths", () => {
  const cases: Array<[string, number, string]> = [
    ["2026-01-15", 6, "2026-07-15"],
    ["2026-08-31", 6, "2027-02-28"],
    ["2027-08-31", 6, "2028-02-29"],
    ["2026-03-31", 6, "2026-09-30"],
    ["2026-12-31", 6, "2027-06-30"],
    ["2026-07-01", 6, "2027-01-01"],
    ["2026-02-28", 6, "2026-08-28"],
    ["2026-01-31", 1, "2026-02-28"],
    ["2026-05-10", 0, "2026-05-10"],
  ];
  for (const [from, months, to] of cases) test(`${from} + ${months} = ${to}`, () => expect(addMonths(from, months)).toBe(to));
  test("rejects non dates", () => expect(() => addMonths("2026/01/01", 6)).toThrow(RangeError));
  test("property: result is a real date 181–184 days later, never before the same day-of-month clamp", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }), (d) => {
        const from = d.toISOString().slice(0, 10);
        const to = addMonths(from, 6);
        const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
        expect(days).toBeGreaterThanOrEqual(178);
        expect(days).toBeLessThanOrEqual(184);
        expect(new Date(`${to}T00:00:00Z`).toISOString().slice(0, 10)).toBe(to);
        const day = Number(from.slice(8));
        expect(Number(to.slice(8))).toBeLessThanOrEqual(day);
      }),
    );
  });
});

describe("cafExpiresOn / isCafExpired", () => {
  for (const tipo of [33, 43, 46, 56, 61]) {
    test(`tipo ${tipo} expires six months after FA`, () => {
      const caf = { tipo, fechaAutorizacion: "2026-01-15" };
      expect(cafExpiresOn(caf)).toBe("2026-07-15");
      expect(isCafExpired(caf, "2026-01-15")).toBe(false);
      expect(isCafExpired(caf, "2026-07-14")).toBe(false);
      expect(isCafExpired(caf, "2026-07-15")).toBe(true);
      expect(isCafExpired(caf, "2027-01-01")).toBe(true);
    });
  }
  for (const tipo of [34, 39, 41, 52, 110, 111, 112]) {
    test(`tipo ${tipo} never expires`, () => {
      const caf = { tipo, fechaAutorizacion: "2000-01-01" };
      expect(cafExpiresOn(caf)).toBeNull();
      expect(isCafExpired(caf, "2099-12-31")).toBe(false);
    });
  }
});
