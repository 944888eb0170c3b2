// The month of `dte resumen` and the CSV writer, without a server (the summary's arithmetic is the server's).
import { describe, expect, test } from "bun:test";
import { toCsv } from "../src/lib/csv.js";
import { monthRange } from "../src/lib/month-range.js";

describe("monthRange", () => {
  test("months, leap years included; anything else is refused", () => {
    expect(monthRange("2026-11")).toEqual({ desde: "2026-11-01", hasta: "2026-11-30" });
    expect(monthRange("2028-02")).toEqual({ desde: "2028-02-01", hasta: "2028-02-29" });
    expect(monthRange("2026-12")?.hasta).toBe("2026-12-31");
    for (const bad of ["2026-13", "2026-1", "noviembre", "2026-11-01"]) expect(monthRange(bad)).toBeNull();
  });
});

test("CSV quotes what needs quoting, for either separator", () => {
  const rows = [{ a: 'Tostaduría "El Sur"; Ltda.', b: 5 }, { a: "dos\nlíneas", b: null }];
  const columns = [{ header: "a", get: (r: (typeof rows)[number]) => r.a }, { header: "b", get: (r: (typeof rows)[number]) => r.b }];
  expect(toCsv(rows, columns, ";")).toBe('a;b\r\n"Tostaduría ""El Sur""; Ltda.";5\r\n"dos\nlíneas";\r\n');
  expect(toCsv(rows, columns)).toBe('a,b\r\n"Tostaduría ""El Sur""; Ltda.",5\r\n"dos\nlíneas",\r\n');
});
