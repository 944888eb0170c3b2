/**
 * The worked examples of BRIEF-doctypes: LibreDTE's published fixtures 046_001–005, 110_001–003, 111_001–002 and
 * 112_001–003, the SII's certified 43 example and cross-checks, and a certified export set (FRANCO SZ, YEN).
 */
import { describe, expect, test } from "bun:test";
import { computeExportTotals } from "./export-totals.js";
import { computeLiquidationTotals } from "./liquidation-totals.js";
import { computePurchaseTotals } from "./purchase-totals.js";

describe("factura de compra (46)", () => {
  test("046_001: no retention", () => {
    const t = computePurchaseTotals({ items: [{ nombre: "P", cantidad: 1, precio: 45000, retencion: null }] });
    expect([t.montoNeto, t.montoIva, t.montoTotal, t.retenciones.length]).toEqual([45000, 8550, 53550, 0]);
  });
  test("046_002: exempt line", () => {
    const t = computePurchaseTotals({ items: [{ nombre: "P", cantidad: 1, precio: 45000, exento: true }] });
    expect([t.montoNeto, t.montoExento, t.montoIva, t.montoTotal, t.retenciones.length]).toEqual([0, 45000, 0, 45000, 0]);
  });
  test("046_003: total retention (code 15, the default)", () => {
    const t = computePurchaseTotals({ items: [{ nombre: "P", cantidad: 1, precio: 100000 }] });
    expect(t.retenciones).toEqual([{ codigo: 15, tasa: "19", base: 100000, monto: 19000 }]);
    expect([t.montoNeto, t.montoIva, t.montoIvaNoRetenido, t.montoTotal]).toEqual([100000, 19000, 0, 100000]);
  });
  test("046_004: partial retention (trigo 4 %) leaves IVANoRet", () => {
    const t = computePurchaseTotals({ items: [{ nombre: "Trigo", cantidad: 2, unidad: "Kg", precio: 5000, retencion: 34 }] });
    expect(t.retenciones).toEqual([{ codigo: 34, tasa: "4", base: 10000, monto: 400 }]);
    expect([t.montoNeto, t.montoIva, t.montoIvaRetenido, t.montoIvaNoRetenido, t.montoTotal]).toEqual([10000, 1900, 400, 1500, 11500]);
  });
  test("046_005: IVA 23554.87 rounds to 23555 and is retained whole", () => {
    const t = computePurchaseTotals({ items: [{ nombre: "Servicio", cantidad: 1, precio: 123973, retencion: 15 }] });
    expect([t.montoIva, t.retenciones[0]?.monto, t.montoTotal]).toEqual([23555, 23555, 123973]);
  });
  test("mixed codes are totalled per code, in order of first appearance", () => {
    const t = computePurchaseTotals({
      items: [
        { nombre: "Trigo", cantidad: 1, precio: 1000, retencion: 34 },
        { nombre: "Chatarra", cantidad: 1, precio: 2000, retencion: 38 },
        { nombre: "Trigo 2", cantidad: 1, precio: 3000, retencion: 34 },
      ],
    });
    expect(t.retenciones.map((r) => [r.codigo, r.base, r.monto])).toEqual([[34, 4000, 160], [38, 2000, 380]]);
    expect(t.montoTotal).toBe(6000 + 1140 - 540);
  });
});

describe("liquidación-factura (43)", () => {
  test("the SII's certified example", () => {
    const t = computeLiquidationTotals({
      documentos: [
        { tipoDocLiq: 33, nombre: "NETO FACTURA ELECTRONICA 1515", cantidad: 1, monto: 165775 },
        { tipoDocLiq: 33, nombre: "NETO", cantidad: 129, monto: 69180 },
        { tipoDocLiq: 33, nombre: "EXENTO", cantidad: 22, monto: 55068, exento: true },
      ],
      comisiones: [{ tipo: "C", descripcion: "COMISION", montoNeto: 4834 }],
    });
    expect([t.montoNeto, t.montoExento, t.montoIva]).toEqual([234955, 55068, 44641]);
    expect(t.totalComisiones).toEqual({ montoNeto: 4834, montoExento: 0, montoIva: 918 });
    expect(t.montoTotal).toBe(328912);
  });
  test("S3 cross-checks, negative commission and none", () => {
    const settle = (neto: number, exe: number, comNeto?: number) =>
      computeLiquidationTotals({
        documentos: [{ tipoDocLiq: 33, nombre: "N", monto: neto }, { tipoDocLiq: 33, nombre: "E", monto: exe, exento: true }],
        comisiones: comNeto === undefined ? [] : [{ tipo: "C", descripcion: "C", montoNeto: comNeto }],
      });
    const a = settle(341244, 77353, 6927);
    expect([a.montoIva, a.totalComisiones.montoIva, a.montoTotal]).toEqual([64836, 1316, 475190]);
    const b = settle(694760, 1098416, -3301);
    expect([b.montoIva, b.totalComisiones.montoIva, b.montoTotal]).toEqual([132004, -627, 1929108]);
    const c = settle(506765, 180844);
    expect([c.montoIva, c.montoTotal]).toEqual([96285, 783894]);
  });
});

describe("exports (110–112)", () => {
  test("110_001 / 111_* / 112_*: 1 × 50 DOLAR USA", () => {
    const t = computeExportTotals({ items: [{ nombre: "Hotel", cantidad: 1, precio: 50 }], tipoCambio: 500 });
    expect([t.montoExento, t.montoTotal]).toEqual(["50", "50"]);
    expect([t.montoExentoPesos, t.montoTotalPesos]).toEqual([25000, 25000]);
  });
  test("110_003: 2 × 50 at 500", () => {
    const t = computeExportTotals({ items: [{ nombre: "Transporte", cantidad: 2, precio: 50 }], tipoCambio: 500 });
    expect([t.montoTotal, t.montoTotalPesos]).toEqual(["100", 50000]);
  });
  test("certified goods case (FRANCO SZ): freight and insurance add to MntExe; pesos rounded half up", () => {
    const t = computeExportTotals({
      items: [{ nombre: "CHATARRA", cantidad: 687, precio: 159 }],
      ajustes: [{ tipo: "R", glosa: "FLETE", valor: "2069.28" }, { tipo: "R", glosa: "SEGURO", valor: "1215.22" }],
      tipoCambio: 1075,
    });
    expect(t.lines[0]?.montoItem).toBe("109233");
    expect([t.montoExento, t.montoTotal, t.montoTotalPesos]).toEqual(["112517.5", "112517.5", 120956313]);
    expect(t.ajustes[0]).toEqual({ monto: "2069.28", montoPesos: "2224476" });
  });
  test("its credit note 112: 229 × 159 → 39141825 pesos", () => {
    const t = computeExportTotals({ items: [{ nombre: "CHATARRA", cantidad: 229, precio: 159 }], tipoCambio: 1075 });
    expect([t.montoTotal, t.montoTotalPesos]).toEqual(["36411", 39141825]);
  });
  test("certified YEN case: a 10 % surcharge on 94 gives MontoItem 103.4 (no fractional RecargoMonto)", () => {
    const t = computeExportTotals({ items: [{ nombre: "S", cantidad: 1, precio: 94, recargoPorcentaje: 10 }], tipoCambio: "6.5" });
    expect(t.lines[0]).toEqual({ montoBruto: "94", descuentoMonto: "0", recargoMonto: "9.4", montoItem: "103.4" });
  });
  test("4 decimals, exact: prices with 6 decimals round half away from zero at the 4th", () => {
    const t = computeExportTotals({ items: [{ nombre: "X", cantidad: 3, precio: "0.123456" }], tipoCambio: "950.25" });
    expect(t.lines[0]?.montoItem).toBe("0.3704"); // 0.370368
    expect(t.montoTotalPesos).toBe(352); // 0.3704 × 950.25 = 351.9726
  });
  test("a percent discount over the lines and FmaPagExp 21 (sin pago) gives a zero total", () => {
    const t = computeExportTotals({
      items: [{ nombre: "M", cantidad: 1, precio: 200 }],
      ajustes: [{ tipo: "D", valor: 5, enPorcentaje: true }],
      tipoCambio: 900,
      sinPago: true,
    });
    expect([t.montoExento, t.montoTotal, t.montoTotalPesos, t.montoExentoPesos]).toEqual(["190", "0", 0, 171000]);
  });
});
