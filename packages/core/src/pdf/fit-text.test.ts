/** Fitting values to their space: `fitText`, and the items table's columns that `fitText` fills (`itemColumns`). */
import { expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { fitText } from "./fit-text.js";
import { itemColumns } from "./item-columns.js";
import type { ItemRow } from "./content.js";
import { Sheet } from "./sheet.js";

const doc = await PDFDocument.create();
const sheet = new Sheet({
  regular: await doc.embedFont(StandardFonts.Helvetica),
  bold: await doc.embedFont(StandardFonts.HelveticaBold),
  italic: await doc.embedFont(StandardFonts.HelveticaOblique),
});

test("fitText keeps the preferred size when the text fits, shrinks to fit, and wraps at the floor, never cutting", () => {
  expect(fitText(sheet, "4.990", { size: 8.5, minSize: 7, width: 64, maxLines: 1 })).toEqual({ size: 8.5, lines: ["4.990"] });
  const shrunk = fitText(sheet, "123.456.789,12", { size: 8.5, minSize: 7, width: 56, maxLines: 1 });
  expect(shrunk.lines).toEqual(["123.456.789,12"]);
  expect(shrunk.size).toBeLessThan(8.5);
  expect(shrunk.size).toBeGreaterThanOrEqual(7);
  expect(sheet.measure("123.456.789,12", shrunk.size)).toBeLessThanOrEqual(56);
  const wrapped = fitText(sheet, "123.456.789.012,123456", { size: 8.5, minSize: 7, width: 40, maxLines: 1 });
  expect(wrapped.size).toBe(7);
  expect(wrapped.lines.join("")).toBe("123.456.789.012,123456");
  for (const line of wrapped.lines) expect(sheet.measure(line, 7)).toBeLessThanOrEqual(40);
});

const row = (over: Partial<ItemRow> = {}): ItemRow => ({ cantidad: "2", unidad: "UN", nombre: "Teclado", descripcion: "",
  precio: "4.990", descuentoPorcentaje: "", descuentoMonto: "", total: "9.980", ...over });

test("itemColumns: the usual layout for ordinary values; wide values widen their column, never past a neighbour", () => {
  const usual = itemColumns(sheet, [row()]);
  expect(usual.desc).toEqual({ x: 122, width: 254 });
  expect(usual.total.x + usual.total.width).toBe(566);
  const wide = itemColumns(sheet, [row({ precio: "123.456.789.012,123456", cantidad: "123.456.789.012,123456",
    descuentoMonto: "1.234.567.890.123", total: "1.234.567.890.123.456" })]);
  const order = [wide.cant, wide.unidad, wide.desc, wide.precio, wide.dcto, wide.total];
  order.slice(1).forEach((col, i) => expect(col.x).toBeGreaterThan((order[i]?.x ?? 0) + (order[i]?.width ?? 0)));
  expect(wide.desc.width).toBeGreaterThanOrEqual(160);
  expect(wide.precio.width).toBeGreaterThan(usual.precio.width);
  expect(wide.total.x + wide.total.width).toBe(566);
});
