// How the emission form reads numbers typed in Chile, and the draft totals it shows while they are typed.
import { describe, expect, test } from "bun:test";
import { draftTotals, parseAmount } from "../src/lib/amounts.js";

test("the form reads numbers as typed in Chile (the SDK's reader, tested there)", () => {
  expect([parseAmount("2,5"), parseAmount("12.990"), parseAmount("doce")]).toEqual([2.5, 12990, null]);
});

describe("draftTotals", () => {
  test("the server's arithmetic: line discounts, IVA once on the net, gross boleta prices split back", () => {
    const factura = draftTotals({ tipo: 33, receptor: { rut: "76192083-9", razon_social: "X" }, items: [{ nombre: "a", cantidad: 3, precio: 12990 }, { nombre: "b", cantidad: 2.5, precio: 1490.4, descuento_porcentaje: 10 }] });
    expect(factura && [factura.montoNeto, factura.montoIva, factura.montoTotal, factura.lines[1]?.montoItem]).toEqual([42323, 8041, 50364, 3353]);
    const boleta = draftTotals({ tipo: 39, receptor: { rut: "66666666-6", razon_social: "Consumidor final" }, items: [{ nombre: "c", cantidad: 2, precio: 2500 }], precios_brutos: true });
    expect(boleta && [boleta.montoNeto, boleta.montoIva, boleta.montoTotal]).toEqual([4202, 798, 5000]);
  });

  test("a note that only corrects text has zero amounts; no line, no totals", () => {
    const text = draftTotals({ tipo: 61, receptor: { rut: "76192083-9", razon_social: "X" }, items: [{ nombre: "a", cantidad: 1, precio: 1000 }], referencia: { tipo_doc: 33, folio: 1, fecha: "2026-11-02", razon: "Corrige giro", codigo: 2 } });
    expect(text?.montoTotal).toBe(0);
    expect(draftTotals({ tipo: 33, receptor: { rut: "76192083-9", razon_social: "X" }, items: [] })).toBeNull();
  });

  test("a guía de despacho (52) computes like a factura; a traslado interno at price 0 totals 0", () => {
    const receptor = { rut: "76192083-9", razon_social: "X" };
    const venta = draftTotals({ tipo: 52, receptor, items: [{ nombre: "Cemento", cantidad: 40, precio: 3990 }], traslado: { tipo: 1, despacho: 2 } });
    expect(venta && [venta.montoNeto, venta.montoIva, venta.montoTotal]).toEqual([159600, 30324, 189924]);
    const interno = draftTotals({ tipo: 52, receptor, items: [{ nombre: "Andamios", cantidad: 12, precio: 0 }], traslado: { tipo: 5 } });
    expect(interno && [interno.montoNeto, interno.montoIva, interno.montoTotal]).toEqual([0, 0, 0]);
  });
});
