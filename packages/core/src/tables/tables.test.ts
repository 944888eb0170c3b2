import { describe, expect, test } from "bun:test";
import {
  isSiiActivityCode, SII_ACTIVITY_CODES,
  COUNTRIES, EXPORT_PAYMENT_FORMS, PACKAGE_KINDS, PORTS, RETENTIONS, SALE_CLAUSES, SII_CURRENCIES, codeName, hasCode,
  isSiiCurrency, retentionLabel, siiCurrencyFromIso,
} from "./index.js";

describe("code tables", () => {
  test("currencies are the SII's names; ISO codes map onto them and are not names themselves", () => {
    expect(isSiiCurrency("DOLAR USA")).toBe(true);
    expect(isSiiCurrency("USD")).toBe(false);
    expect(siiCurrencyFromIso("usd")).toBe("DOLAR USA");
    expect(siiCurrencyFromIso("CHF")).toBe("FRANCO SZ");
    expect(siiCurrencyFromIso("XXX")).toBeUndefined();
    expect(SII_CURRENCIES).toHaveLength(40);
  });
  test("codes have words; unknown codes print as themselves", () => {
    expect(codeName(SALE_CLAUSES, 5)).toBe("FOB");
    expect(codeName(PORTS, 906)).toBe("SAN ANTONIO");
    expect(codeName(COUNTRIES, 504)).toBe("ITALIA");
    expect(codeName(PACKAGE_KINDS, 18)).toBe("TRONCOS");
    expect(codeName(PORTS, 4242)).toBe("4242");
    expect(hasCode(EXPORT_PAYMENT_FORMS, 55)).toBe(true);
    expect(hasCode(EXPORT_PAYMENT_FORMS, 3)).toBe(false);
  });
  test("no table repeats a code", () => {
    for (const table of [COUNTRIES, PORTS, PACKAGE_KINDS, SALE_CLAUSES, EXPORT_PAYMENT_FORMS]) {
      expect(new Set(table.map((e) => e.code)).size).toBe(table.length);
    }
    expect(new Set(RETENTIONS.map((r) => r.codigo)).size).toBe(RETENTIONS.length);
  });
  test("retention labels carry the rate", () => {
    expect(retentionLabel(34)).toBe("IVA retenido trigo (4 %)");
    expect(retentionLabel(15)).toBe("IVA retenido total (19 %)");
  });
  test("SII economic activity codes: the 674 six-digit codes of the SII's list, nothing else", () => {
    expect(SII_ACTIVITY_CODES.size).toBe(674);
    for (const code of [11101, 620200, 620100, 561000, 477399, 990000]) expect(isSiiActivityCode(code)).toBe(true);
    for (const code of [726000, 999999, 0, 620201, 12]) expect(isSiiActivityCode(code)).toBe(false);
    expect([...SII_ACTIVITY_CODES].every((c) => c >= 11101 && c <= 990000)).toBe(true);
  });
});
