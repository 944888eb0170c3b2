import { describe, expect, test } from "bun:test";
import type { DocumentContent, Line } from "../document/types.js";
import { CASES } from "../../test/support/document-cases.js";
import { computeTotals } from "./index.js";

const item = (precio: number | string, cantidad: number | string = 1, extra: Partial<Line> = {}): Line => ({
  nombre: "Item",
  cantidad,
  precio,
  ...extra,
});

function totals(content: DocumentContent) {
  const t = computeTotals(content);
  return { neto: t.montoNeto, exento: t.montoExento, iva: t.montoIva, total: t.montoTotal };
}

describe("additional taxes (ImptoReten)", () => {
  test("per code: rate × the sum of its lines after their discounts, rounded once; added to the total, not to IVA", () => {
    const t = computeTotals(CASES["33 impuestos adicionales"] as DocumentContent);
    // 271: (24 × 1 890 + 6 × 1 190) × 18 % = 52 500 × 18 %; 27: (12 × 690 − 5 %) = 7 866 × 10 % = 786.6;
    // 25: 29 940 × 20.5 % = 6 137.7; 26: 21 960 × 20.5 % = 4 501.8; 24: 15 980 × 31.5 % = 5 033.7.
    expect(t.impuestosAdicionales).toEqual([
      { codigo: 271, tasa: "18", base: 52500, monto: 9450 },
      { codigo: 27, tasa: "10", base: 7866, monto: 787 },
      { codigo: 25, tasa: "20.5", base: 29940, monto: 6138 },
      { codigo: 26, tasa: "20.5", base: 21960, monto: 4502 },
      { codigo: 24, tasa: "31.5", base: 15980, monto: 5034 },
    ]);
    // the glasses (2 500) carry only IVA; IVA is on the whole net amount
    expect({ neto: t.montoNeto, iva: t.montoIva }).toEqual({ neto: 130746, iva: 24842 });
    expect(t.montoTotal).toBe(130746 + 24842 + 9450 + 787 + 6138 + 4502 + 5034);
  });

  test("none on exempt lines, on lines of price 0, or on a note that only corrects text", () => {
    expect(computeTotals({ tipo: 33, items: [item(1000, 1, { impuestoAdicional: 27, exento: true }), item(1000)] }).impuestosAdicionales).toEqual([]);
    expect(computeTotals({ tipo: 33, items: [item(0, 1, { impuestoAdicional: 27 })] }).impuestosAdicionales).toEqual([]);
    const textOnly = computeTotals({ tipo: 61, items: [item(1000, 1, { impuestoAdicional: 27 })], referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-01-10", codigo: 2 }] });
    expect({ taxes: textOnly.impuestosAdicionales, total: textOnly.montoTotal }).toEqual({ taxes: [], total: 0 });
  });
});

describe("notes", () => {
  test("a note whose lines are all exempt takes its global discount off the exempt amount", () => {
    const t = computeTotals({ tipo: 61, items: [item(10000, 1, { exento: true })], descuentoGlobalPorcentaje: 10, referencias: [{ tipoDoc: 34, folio: 1, fecha: "2026-01-10", codigo: 3 }] });
    expect(t.descuentoGlobal).toEqual({ porcentaje: "10", monto: 1000, sobre: "exento" });
    expect({ exento: t.montoExento, neto: t.montoNeto, total: t.montoTotal }).toEqual({ exento: 9000, neto: 0, total: 9000 });
  });

  test("only a credit note's CodRef 2 (corrige texto) zeroes the amounts", () => {
    const refs = [{ tipoDoc: 33, folio: 1, fecha: "2026-01-10", codigo: 2 as const }];
    expect(totals({ tipo: 61, items: [item(10000)], referencias: refs }).total).toBe(0);
    for (const tipo of [33, 39, 56] as const) expect(totals({ tipo, items: [item(10000)], referencias: refs }).total).toBeGreaterThan(0);
  });
});

describe("guía de despacho (52)", () => {
  test("the '52 guía venta' case, by hand: net lines with a line discount, an exempt line, IVA once on the net", () => {
    const t = computeTotals(CASES["52 guía venta"] as DocumentContent);
    // 40 × 1 990.5 = 79 620, less 10 % (7 962) = 71 658; 12 × 4 590 = 55 080; exempt 2 × 8 500 = 17 000.
    expect(t.lines).toEqual([
      { montoBruto: 79620, descuentoMonto: 7962, montoItem: 71658, exento: false },
      { montoBruto: 55080, descuentoMonto: 0, montoItem: 55080, exento: false },
      { montoBruto: 17000, descuentoMonto: 0, montoItem: 17000, exento: true },
    ]);
    // neto 71 658 + 55 080 = 126 738; IVA 19 % = 24 080.22 → 24 080; total 126 738 + 24 080 + 17 000.
    expect(totals(CASES["52 guía venta"] as DocumentContent)).toEqual({ neto: 126738, exento: 17000, iva: 24080, total: 167818 });
  });

  test("computes like a 33: global discount on the taxable amount, gross prices split back into net and IVA", () => {
    const lines = [item(10000, 3), item(5000, 1, { exento: true })];
    expect(totals({ tipo: 52, items: lines, descuentoGlobalPorcentaje: 10 })).toEqual(totals({ tipo: 33, items: lines, descuentoGlobalPorcentaje: 10 }));
    expect(totals({ tipo: 52, items: lines, descuentoGlobalPorcentaje: 10 })).toEqual({ neto: 27000, exento: 5000, iva: 5130, total: 37130 });
    expect(totals({ tipo: 52, items: [item(11900)], preciosBrutos: true })).toEqual({ neto: 10000, exento: 0, iva: 1900, total: 11900 });
  });

  test("a traslado without prices is all zeros (BRIEF §3, LibreDTE 052_002: MntTotal 0)", () => {
    expect(totals(CASES["52 traslado interno"] as DocumentContent)).toEqual({ neto: 0, exento: 0, iva: 0, total: 0 });
  });
});

describe("BRIEF §3 worked examples", () => {
  test("033_006 line discount 10 %", () => {
    const t = computeTotals({ tipo: 33, items: [item(104090, 1, { descuentoPorcentaje: 10 })] });
    expect(t.lines[0]).toEqual({ montoBruto: 104090, descuentoMonto: 10409, montoItem: 93681, exento: false });
    expect(totals({ tipo: 33, items: [item(104090, 1, { descuentoPorcentaje: 10 })] })).toEqual({ neto: 93681, exento: 0, iva: 17799, total: 111480 });
  });
  test("033_004 global discount 10 %", () => {
    const t = computeTotals({ tipo: 33, items: [item(104090)], descuentoGlobalPorcentaje: 10 });
    expect(t.descuentoGlobal).toEqual({ porcentaje: "10", monto: 10409, sobre: "afecto" });
    expect(t.montoNeto).toBe(93681);
    expect(t.montoIva).toBe(17799);
    expect(t.montoTotal).toBe(111480);
  });
  test("033_003 fractional quantity 2.5 × 280000 (taxes other than IVA out of scope)", () => {
    expect(totals({ tipo: 33, items: [item(280000, 2.5)] })).toEqual({ neto: 700000, exento: 0, iva: 133000, total: 833000 });
  });
  test("033_008 1 × 1000", () => {
    expect(totals({ tipo: 33, items: [item(1000)] })).toEqual({ neto: 1000, exento: 0, iva: 190, total: 1190 });
  });
  test("039_001 receipt from gross 1190", () => {
    expect(totals({ tipo: 39, preciosBrutos: true, items: [item(1190)] })).toEqual({ neto: 1000, exento: 0, iva: 190, total: 1190 });
  });
  test("039_002 receipt gross with global discount 10 %", () => {
    expect(totals({ tipo: 39, preciosBrutos: true, items: [item(1190)], descuentoGlobalPorcentaje: 10 })).toEqual({ neto: 900, exento: 0, iva: 171, total: 1071 });
  });
  test("039_004 receipt several gross lines", () => {
    expect(totals({ tipo: 39, preciosBrutos: true, items: [item(1000, 2), item(1500), item(500, 3)] })).toEqual({ neto: 4202, exento: 0, iva: 798, total: 5000 });
  });
  test("039_001_montos_netos: receipt with net prices", () => {
    expect(totals({ tipo: 39, items: [item(1190)] })).toEqual({ neto: 1190, exento: 0, iva: 226, total: 1416 });
  });
  test("034_005 exempt invoice", () => {
    expect(totals({ tipo: 34, items: [item(20000)] })).toEqual({ neto: 0, exento: 20000, iva: 0, total: 20000 });
  });
  test("041_002 exempt receipt with global discount applies to the exempt amount", () => {
    const t = computeTotals({ tipo: 41, items: [item(1000)], descuentoGlobalPorcentaje: 10 });
    expect(t.descuentoGlobal?.sobre).toBe("exento");
    expect(totals({ tipo: 41, items: [item(1000)], descuentoGlobalPorcentaje: 10 })).toEqual({ neto: 0, exento: 900, iva: 0, total: 900 });
  });
  test("061_002 credit note correcting text carries zeros", () => {
    expect(
      totals({ tipo: 61, items: [item(5000)], referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-01-01", codigo: 2 }] }),
    ).toEqual({ neto: 0, exento: 0, iva: 0, total: 0 });
  });
  test("061_003 credit note correcting amounts 450 × 20", () => {
    expect(
      totals({ tipo: 61, items: [item(20, 450)], referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-01-01", codigo: 3 }] }),
    ).toEqual({ neto: 9000, exento: 0, iva: 1710, total: 10710 });
  });
});

describe("hand-computed cases", () => {
  const cases: Array<[string, DocumentContent, { neto: number; exento: number; iva: number; total: number }]> = [
    ["single unit", { tipo: 33, items: [item(100)] }, { neto: 100, exento: 0, iva: 19, total: 119 }],
    ["IVA rounds half up: 50 × 19 % = 9.5 → 10", { tipo: 33, items: [item(50)] }, { neto: 50, exento: 0, iva: 10, total: 60 }],
    ["IVA rounds down: 10 × 19 % = 1.9 → 2; 2 → 0.38 → 0", { tipo: 33, items: [item(2)] }, { neto: 2, exento: 0, iva: 0, total: 2 }],
    ["IVA once on total, not per line: 3 lines of 50", { tipo: 33, items: [item(50), item(50), item(50)] }, { neto: 150, exento: 0, iva: 29, total: 179 }],
    ["float-hostile quantity 1.15 × 100", { tipo: 33, items: [item(100, 1.15)] }, { neto: 115, exento: 0, iva: 22, total: 137 }],
    ["0.1 × 3 prices → 0.3 → 0 per line", { tipo: 33, items: [item(0.1, 3)] }, { neto: 0, exento: 0, iva: 0, total: 0 }],
    ["1.005 × 1000 = 1005 exactly", { tipo: 33, items: [item(1000, 1.005)] }, { neto: 1005, exento: 0, iva: 191, total: 1196 }],
    ["price with 6 decimals 0.333333 × 3 = 0.999999 → 1", { tipo: 33, items: [item("0.333333", 3)] }, { neto: 1, exento: 0, iva: 0, total: 1 }],
    ["half peso rounds away from zero: 2.5 × 1 → 3", { tipo: 33, items: [item(2.5)] }, { neto: 3, exento: 0, iva: 1, total: 4 }],
    ["line discount 15 % of 999 = 149.85 → 150", { tipo: 33, items: [item(999, 1, { descuentoPorcentaje: 15 })] }, { neto: 849, exento: 0, iva: 161, total: 1010 }],
    ["line discount 100 % gives a zero line", { tipo: 33, items: [item(5000, 1, { descuentoPorcentaje: 100 }), item(1000)] }, { neto: 1000, exento: 0, iva: 190, total: 1190 }],
    ["mixed taxable and exempt lines", { tipo: 33, items: [item(10000), item(5000, 1, { exento: true })] }, { neto: 10000, exento: 5000, iva: 1900, total: 16900 }],
    ["global discount only on the taxable part", { tipo: 33, items: [item(10000), item(5000, 1, { exento: true })], descuentoGlobalPorcentaje: 10 }, { neto: 9000, exento: 5000, iva: 1710, total: 15710 }],
    ["global discount 12.5 % of 333 = 41.625 → 42", { tipo: 33, items: [item(333)], descuentoGlobalPorcentaje: 12.5 }, { neto: 291, exento: 0, iva: 55, total: 346 }],
    ["line and global discounts compose", { tipo: 33, items: [item(20000, 2, { descuentoPorcentaje: 5 })], descuentoGlobalPorcentaje: 10 }, { neto: 34200, exento: 0, iva: 6498, total: 40698 }],
    ["invoice with gross prices (MntBruto)", { tipo: 33, preciosBrutos: true, items: [item(11900)] }, { neto: 10000, exento: 0, iva: 1900, total: 11900 }],
    ["gross receipt 990: net round(831.93) = 832", { tipo: 39, preciosBrutos: true, items: [item(990)] }, { neto: 832, exento: 0, iva: 158, total: 990 }],
    ["gross receipt with exempt line", { tipo: 39, preciosBrutos: true, items: [item(2380), item(500, 1, { exento: true })] }, { neto: 2000, exento: 500, iva: 380, total: 2880 }],
    ["gross receipt 1 peso: net 1, iva 0", { tipo: 39, preciosBrutos: true, items: [item(1)] }, { neto: 1, exento: 0, iva: 0, total: 1 }],
    ["gross receipt with fractional quantity 0.5 kg × 2990 = 1495", { tipo: 39, preciosBrutos: true, items: [item(2990, 0.5)] }, { neto: 1256, exento: 0, iva: 239, total: 1495 }],
    ["exempt receipt several lines", { tipo: 41, items: [item(1500, 2), item(700)] }, { neto: 0, exento: 3700, iva: 0, total: 3700 }],
    ["exempt invoice ignores preciosBrutos", { tipo: 34, preciosBrutos: true, items: [item(1190)] }, { neto: 0, exento: 1190, iva: 0, total: 1190 }],
    ["exempt invoice with line and global discounts", { tipo: 34, items: [item(10000, 1, { descuentoPorcentaje: 10 })], descuentoGlobalPorcentaje: 5 }, { neto: 0, exento: 8550, iva: 0, total: 8550 }],
    ["debit note with interest", { tipo: 56, items: [item(12345)], referencias: [{ tipoDoc: 33, folio: 7, fecha: "2026-01-01", codigo: 3 }] }, { neto: 12345, exento: 0, iva: 2346, total: 14691 }],
    ["credit note annulling: same as the original", { tipo: 61, items: [item(104090, 1, { descuentoPorcentaje: 10 })], referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-01-01", codigo: 1 }] }, { neto: 93681, exento: 0, iva: 17799, total: 111480 }],
    ["large amounts stay exact: 999999 × 999999.5 = 999998500000.5 → …001", { tipo: 33, items: [item(999999.5, 999999)] }, { neto: 999998500001, exento: 0, iva: 189999715000, total: 1189998215001 }],
    ["zero-price line", { tipo: 33, items: [item(0, 3), item(100)] }, { neto: 100, exento: 0, iva: 19, total: 119 }],
    ["decimal strings accepted", { tipo: 33, items: [item("1999.99", "2")] }, { neto: 4000, exento: 0, iva: 760, total: 4760 }],
  ];
  for (const [name, content, expected] of cases) {
    test(name, () => expect(totals(content)).toEqual(expected));
  }
});
