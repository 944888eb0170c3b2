// Excel workbooks written by an independent library (SheetJS) read as the same emission requests a CSV gives:
// shared or inline strings, compressed or stored, numbers kept exact (1,495 is not 1 495), dates from serials,
// booleans, Excel's row numbers; an old .xls or an .ods (a ZIP, not a workbook) is a problem, not a crash.
import { describe, expect, test } from "bun:test";
import * as XLSX from "xlsx";
import { excelDate, failedRowsCsv, readEmissionFile, readEmissionSheet } from "./index.js";

const HEADER = ["documento", "tipo", "fecha", "RUT", "Razón Social", "Giro", "Dirección", "Comuna", "nombre", "cantidad", "precio", "exento"];
const ROWS: unknown[][] = [
  ["F-1", 33, new Date(Date.UTC(2026, 10, 3)), "76192083-9", "Café Ñuñoa Ltda.", "Cafetería", "Irarrázaval 3000", "Ñuñoa", "Café en grano", 2.5, 1.495, false],
  ["F-1", null, null, null, null, null, null, null, "Despacho", 1, 3000, true],
  [],
  ["B-1", 39, null, null, null, null, null, null, "Pan <amasado> & \"hallulla\"", 3, 1500, null],
];

function workbook(options: XLSX.WritingOptions, rows = ROWS): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([HEADER, ...rows], { cellDates: true }), "Ventas");
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["Instrucciones"], ["no es la hoja de ventas"]]), "Ayuda");
  return new Uint8Array(XLSX.write(book, { type: "array", ...options }) as ArrayBuffer);
}

describe("readEmissionFile on .xlsx", () => {
  test.each([
    ["shared strings, compressed", { bookType: "xlsx", bookSST: true, compression: true }],
    ["inline strings, stored", { bookType: "xlsx", bookSST: false, compression: false }],
  ] as const)("%s: the first worksheet as emission requests, numbers exact, dates and booleans read", async (_, options) => {
    const sheet = await readEmissionFile(workbook(options as XLSX.WritingOptions));
    expect(sheet.problems).toEqual([]);
    expect(sheet.documents.map((d) => [d.label, d.rows])).toEqual([["F-1", [2, 3]], ["B-1", [5]]]);
    expect(sheet.documents[0]?.params).toEqual({
      tipo: 33,
      fecha: "2026-11-03",
      receptor: { rut: "76192083-9", razon_social: "Café Ñuñoa Ltda.", giro: "Cafetería", direccion: "Irarrázaval 3000", comuna: "Ñuñoa" },
      items: [
        { nombre: "Café en grano", cantidad: 2.5, precio: 1.495, exento: false },
        { nombre: "Despacho", cantidad: 1, precio: 3000, exento: true },
      ],
    });
    expect(sheet.documents[1]?.params.items[0]?.nombre).toBe('Pan <amasado> & "hallulla"');
  });

  test("the failed rows of a workbook are a CSV that reads back as the same documents", async () => {
    const sheet = await readEmissionFile(workbook({ bookType: "xlsx" }));
    const failed = failedRowsCsv(sheet, [{ document: sheet.documents[0]!, message: "receptor.rut: …" }]);
    expect(readEmissionSheet(failed).documents.map((d) => d.params)).toEqual([sheet.documents[0]!.params]);
  });

  test("an old .xls, a ZIP that is not a workbook, and a CSV all answer without throwing", async () => {
    const xls = await readEmissionFile(workbook({ bookType: "biff8" }));
    expect(xls.problems.map((p) => p.reason)).toEqual(["not_a_sheet"]);
    const ods = await readEmissionFile(workbook({ bookType: "ods" })); // a ZIP, but LibreOffice's format
    expect(ods.problems.map((p) => p.reason)).toEqual(["not_a_sheet"]);
    const csv = await readEmissionFile(new TextEncoder().encode("tipo;nombre;cantidad;precio\n39;Pan;1;1.000\n"));
    expect(csv.documents[0]?.params.items[0]?.precio).toBe(1000);
  });

  test("a date written as an ISO date cell (t=\"d\") is read like a serial one", async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["tipo", "fecha", "nombre", "cantidad", "precio"], [39, new Date(Date.UTC(2026, 10, 3)), "Pan", 1, 1000]], { cellDates: true }), "S");
    const sheet = await readEmissionFile(new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx", cellDates: true }) as ArrayBuffer));
    expect(sheet.documents[0]?.params.fecha).toBe("2026-11-03");
  });

  test("Excel date serials", () => {
    expect([excelDate(46_329), excelDate(45_000), excelDate(61)]).toEqual(["2026-11-03", "2023-03-15", "1900-03-01"]);
  });
});
