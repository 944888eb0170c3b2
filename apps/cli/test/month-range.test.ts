// The month of `dte resumen`, without a server (the summary's arithmetic is the server's).
import { describe, expect, test } from "bun:test";
import { monthRange } from "../src/lib/month-range.js";

describe("monthRange", () => {
  test("months, leap years included; anything else is refused", () => {
    expect(monthRange("2026-11")).toEqual({ desde: "2026-11-01", hasta: "2026-11-30" });
    expect(monthRange("2028-02")).toEqual({ desde: "2028-02-01", hasta: "2028-02-29" });
    expect(monthRange("2026-12")?.hasta).toBe("2026-12-31");
    for (const bad of ["2026-13", "2026-1", "noviembre", "2026-11-01"]) expect(monthRange(bad)).toBeNull();
  });
});
