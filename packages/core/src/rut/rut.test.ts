import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { cleanRut, computeDv, formatRut, isValidRut, normalizeRut, parseRut, tryParseRut } from "./index.js";

describe("rut", () => {
  test("known check digits from BRIEF §1", () => {
    for (const rut of ["76192083-9", "60803000-K", "66666666-6", "55555555-5", "97975000-5", "96670340-7", "76354771-K"]) {
      const [body, dv] = rut.split("-");
      expect(computeDv(body!)).toBe(dv!);
      expect(isValidRut(rut)).toBe(true);
    }
  });

  test("accepts dots, spaces, lower-case k and leading zeros", () => {
    expect(normalizeRut("60.803.000-k")).toBe("60803000-K");
    expect(normalizeRut(" 76 192 083 9 ")).toBe("76192083-9");
    expect(normalizeRut("076192083-9")).toBe("76192083-9");
    expect(cleanRut("76.192.083-k")).toBe("76192083K");
  });

  test("formats with dots", () => {
    expect(formatRut("76192083-9")).toBe("76.192.083-9");
    expect(formatRut("1-9")).toBe("1-9");
    expect(formatRut("1.234.567-4")).toBe("1.234.567-4");
    expect(computeDv("1234567")).toBe("4");
  });

  test("rejects wrong digit, garbage and empty", () => {
    expect(tryParseRut("76192083-8")).toBeNull();
    expect(tryParseRut("")).toBeNull();
    expect(tryParseRut("abc")).toBeNull();
    expect(tryParseRut("0-0")).toBeNull();
    expect(() => parseRut("76192083-K")).toThrow(/invalid RUT/);
  });

  test("property: every body with its computed digit round-trips through every writing", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
        const dv = computeDv(n);
        const canonical = `${n}-${dv}`;
        expect(normalizeRut(canonical)).toBe(canonical);
        expect(normalizeRut(formatRut(canonical))).toBe(canonical);
        expect(normalizeRut(canonical.toLowerCase())).toBe(canonical);
        expect(parseRut(formatRut(canonical))).toEqual({ body: String(n), dv });
      }),
    );
  });

  test("property: any other check digit is refused", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), fc.constantFrom(..."0123456789K"), (n, dv) => {
        fc.pre(dv !== computeDv(n));
        expect(isValidRut(`${n}-${dv}`)).toBe(false);
      }),
    );
  });

  test("property: the digit is what módulo 11 says", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
        const digits = String(n).split("").reverse().map(Number);
        const s = digits.reduce((acc, d, i) => acc + d * [2, 3, 4, 5, 6, 7][i % 6]!, 0);
        const r = 11 - (s % 11);
        expect(computeDv(n)).toBe(r === 11 ? "0" : r === 10 ? "K" : String(r));
      }),
    );
  });
});
