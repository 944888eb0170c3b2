// What the emission form is filled with when it starts from an issued document (no browser).
import { expect, test } from "bun:test";
import type { DteDetail } from "@timbre/sdk";
import { copyDraft, invoiceDraft, noteDraft } from "../src/pages/drafts.js";

const factura = {
  id: "dte_1", tipo: 33, folio: 12, fecha: "2026-11-02", fecha_emision: "2026-11-02T12:00:00.000Z",
  receptor: { rut: "76192083-9", razon_social: "Tostaduría del Sur Ltda.", giro: "Comercio", direccion: "Los Aromos 45", comuna: "Temuco" },
  monto_neto: 1000, monto_exento: 500, monto_iva: 190, monto_total: 1690, estado: "ACEPTADO", track_id: "1", pdf_url: "", xml_url: "", environment: "test", created_at: "",
  precios_brutos: false, forma_pago: 1, descuento_global_porcentaje: 5, observaciones: "OC 881",
  items: [
    { nombre: "Café", descripcion: "Tueste medio, grano entero", cantidad: 2, precio: 500, unidad: "kg", monto: 1000, exento: false },
    { nombre: "Flete", cantidad: 1, precio: 500, monto: 500, exento: true },
  ],
  referencias: [], historial: [],
} as unknown as DteDetail;

test("a note: the document's receptor, lines, options and the reference; not its payment term or remarks", () => {
  const draft = noteDraft(factura, 61);
  expect(draft).toEqual({
    tipo: 61,
    receptor: { ...factura.receptor, razon_social: "Tostaduría del Sur Ltda." },
    precios_brutos: false,
    descuento_global_porcentaje: 5,
    items: [
      { nombre: "Café", descripcion: "Tueste medio, grano entero", cantidad: 2, precio: 500, unidad: "kg", descuento_porcentaje: undefined, exento: false },
      { nombre: "Flete", descripcion: undefined, cantidad: 1, precio: 500, unidad: undefined, descuento_porcentaje: undefined, exento: true },
    ],
    referencia: { tipo_doc: 33, folio: 12, fecha: "2026-11-02" },
  });
});

test("a note on an exempt factura (34) has exempt lines, though the document's lines do not say so one by one", () => {
  const exenta = { ...factura, tipo: 34, items: factura.items.map((i) => ({ ...i, exento: false })) } as DteDetail;
  expect(noteDraft(exenta, 56).items?.map((i) => i.exento)).toEqual([true, true]);
  expect(noteDraft(factura, 56).items?.map((i) => i.exento)).toEqual([false, true]);
});

test("a copy keeps the tipo, payment term and remarks, and carries no reference", () => {
  const draft = copyDraft(factura);
  expect(draft).toMatchObject({ tipo: 33, forma_pago: 1, observaciones: "OC 881", descuento_global_porcentaje: 5 });
  expect(draft.referencia).toBeUndefined();
});

test("a guía de despacho's copy keeps its traslado and transport; a note on it carries neither (not allowed on a 61)", () => {
  const guia = { ...factura, tipo: 52, traslado: { tipo: 1, despacho: 2 }, transporte: { patente: "KXTR21", chofer: { rut: "11111111-1", nombre: "Juan Soto" } } } as DteDetail;
  expect(copyDraft(guia)).toMatchObject({ tipo: 52, traslado: { tipo: 1, despacho: 2 }, transporte: { patente: "KXTR21", chofer: { rut: "11111111-1", nombre: "Juan Soto" } } });
  const note = noteDraft(guia, 61);
  expect(note.referencia).toEqual({ tipo_doc: 52, folio: 12, fecha: "2026-11-02" });
  expect("traslado" in note || "transporte" in note).toBe(false);
});

test("the factura that bills a guía: tipo 33, the guía's receptor and lines, a reference to it, no traslado", () => {
  const guia = { ...factura, tipo: 52, folio: 21, traslado: { tipo: 1 }, transporte: { patente: "KXTR21" } } as DteDetail;
  const draft = invoiceDraft(guia);
  expect(draft).toMatchObject({ tipo: 33, receptor: guia.receptor, referencia: { tipo_doc: 52, folio: 21, fecha: "2026-11-02", razon: "Factura de guía de despacho N° 21" } });
  expect(draft.items?.map((i) => i.nombre)).toEqual(guia.items.map((i) => i.nombre));
  expect("traslado" in draft || "transporte" in draft).toBe(false);
});
