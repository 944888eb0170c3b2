// Reading an emission spreadsheet as people in Chile write one: cells, CSV dialects, grouping rows into documents,
// problems by row, and the files around it (template, failed rows).
import { describe, expect, test } from "bun:test";
import {
  chunkDocuments,
  decodeText,
  detectSeparator,
  documentsCsv,
  emissionSheetTemplate,
  errorPlaces,
  failedRowsCsv,
  parseAmount,
  parseCsv,
  parseSheetDate,
  parseYesNo,
  withContentKeys,
  readEmissionSheet,
  rowOfField,
  rowSpan,
  writeCsv,
} from "./index.js";

describe("cells", () => {
  test.each([
    ["2,5", 2.5],
    ["2.5", 2.5],
    ["1490,4", 1490.4],
    ["12.990", 12990],
    ["1.234.567", 1234567],
    ["1.234,5", 1234.5],
    ["1,234.5", 1234.5],
    ["$ 4.990", 4990],
    [" 7 ", 7],
    ["0,000001", 0.000001],
  ])("amount %p → %p", (text, expected) => expect(parseAmount(text)).toBe(expected));

  test.each(["", "doce", "1,2,3", "1.2.3", "12.99.0", "1e5", "--1", "1.23,4", "12,34.5.6"])("%p is not an amount", (text) => expect(parseAmount(text)).toBeNull());

  test.each([
    ["2026-11-25", "2026-11-25"],
    ["25-11-2026", "2026-11-25"],
    ["5/1/2026", "2026-01-05"],
    ["2026-11-25 00:00:00", "2026-11-25"],
    ["2026-11-25T00:00:00.000Z", "2026-11-25"],
    ["29.02.2028", "2028-02-29"],
  ])("date %p → %p", (text, expected) => expect(parseSheetDate(text)).toBe(expected));

  test.each(["31-02-2026", "2026-13-01", "11/25/2026", "ayer", "2026-11"])("%p is not a date", (text) => expect(parseSheetDate(text)).toBeNull());

  test("forma_pago as a number or a word", () => {
    const pago = (cell: string) => readEmissionSheet(`tipo,rut,razon_social,nombre,cantidad,precio,forma_pago\n33,1-9,X,a,1,1,${cell}\n`).documents[0]?.params.forma_pago;
    expect(["1", "Contado", "al contado", "efectivo", "2", "a crédito", "3", "sin costo"].map(pago)).toEqual([1, 1, 1, 1, 2, 2, 3, 3]);
  });

  test("yes and no in Spanish and English; anything else is neither", () => {
    expect(["Sí", "si", "X", "1", "TRUE"].map(parseYesNo)).toEqual([true, true, true, true, true]);
    expect(["No", "0", "falso"].map(parseYesNo)).toEqual([false, false, false]);
    expect(parseYesNo("quizás")).toBeNull();
  });
});

describe("CSV dialects", () => {
  test("quoted fields hold the separator, doubled quotes and line breaks; CRLF and a final line break", () => {
    expect(parseCsv('a,"b, c","say ""hi""","two\r\nlines"\r\n1,2,3,4\r\n', ",")).toEqual([
      ["a", "b, c", 'say "hi"', "two\r\nlines"],
      ["1", "2", "3", "4"],
    ]);
  });

  test("the separator is the one the header uses most, outside quotes", () => {
    expect(detectSeparator("tipo;item.nombre;item.precio\n33;a,b;1")).toBe(";");
    expect(detectSeparator('"a;b",c,d')).toBe(",");
    expect(detectSeparator("tipo\titem.nombre")).toBe("\t");
  });

  test("UTF-8 with or without BOM, and Windows-1252 as Excel in Chile saves it", () => {
    const utf8 = new TextEncoder().encode("\uFEFFÑuñoa;€");
    expect(decodeText(utf8)).toBe("Ñuñoa;€");
    expect(decodeText(new Uint8Array([0xd1, 0x75, 0xf1, 0x6f, 0x61, 0x3b, 0x80]))).toBe("Ñuñoa;€");
  });

  test("written CSV reads back the same", () => {
    const records = [["a;b", 'c"d', "e\nf", 12]];
    expect(parseCsv(writeCsv(records, ";"), ";")).toEqual([["a;b", 'c"d', "e\nf", "12"]]);
  });
});

describe("readEmissionSheet", () => {
  test("the template reads as a factura of two lines and a boleta, in either separator", () => {
    for (const separator of [",", ";"] as const) {
      const sheet = readEmissionSheet(emissionSheetTemplate(separator));
      expect(sheet.problems).toEqual([]);
      expect(sheet.separator).toBe(separator);
      const [factura, boleta] = sheet.documents;
      expect(factura?.label).toBe("F-1");
      expect(factura?.rows).toEqual([2, 3]);
      expect(factura?.params).toEqual({
        tipo: 33,
        receptor: { rut: "76192083-9", razon_social: "Comercial Los Andes SpA", giro: "Venta de insumos", direccion: "Av. Providencia 1234", comuna: "Providencia", email: "pagos@losandes.cl" },
        items: [
          { nombre: "Resma carta", cantidad: 10, precio: 3990, unidad: "UN", exento: false },
          { nombre: "Despacho", cantidad: 1, precio: 5000, exento: true },
        ],
        precios_brutos: false,
        forma_pago: 2,
        observaciones: "OC 4512",
      });
      expect(boleta?.params.items).toEqual([{ nombre: "Café en grano 1 kg", cantidad: 2.5, precio: 12990, unidad: "KG", descuento_porcentaje: 10, exento: false }]);
      expect(boleta?.params.precios_brutos).toBe(true);
    }
  });

  test("without a documento column a row with a tipo starts a document and one without adds a line", () => {
    const sheet = readEmissionSheet(
      "Tipo;RUT;Razón Social;Nombre;Cantidad;Precio\n" +
        "39;66666666-6;Consumidor final;Pan;2;1.200\n" +
        ";;;Leche;1;990\n" +
        ";;;;;\n" +
        "39;66666666-6;Consumidor final;Café;1;2500\n",
    );
    expect(sheet.problems).toEqual([]);
    expect(sheet.documents.map((d) => [d.rows, d.itemRows, d.params.items.map((i) => i.precio)])).toEqual([
      [[2, 3], [2, 3], [1200, 990]],
      [[5], [5], [2500]],
    ]);
  });

  test("an Impuesto adicional column gives each line its tax code; empty cells leave the line without one", () => {
    const sheet = readEmissionSheet(
      "Tipo;RUT;Razón Social;Giro;Dirección;Comuna;Nombre;Cantidad;Precio;Impuesto adicional\n" +
        "33;76192083-9;Minimarket;Comercio;Los Aromos 45;Temuco;Bebida cola 3 L;24;1.890;271\n" +
        ";;;;;;Vasos;100;25;\n",
    );
    expect(sheet.problems).toEqual([]);
    expect(sheet.documents[0]?.params.items).toEqual([
      { nombre: "Bebida cola 3 L", cantidad: 24, precio: 1890, impuesto_adicional: 271 },
      { nombre: "Vasos", cantidad: 100, precio: 25 },
    ]);
  });

  test("guías de despacho from a sheet: the traslado and transporte columns, the driver nested", () => {
    const sheet = readEmissionSheet(
      "tipo;rut;razon_social;giro;direccion;comuna;nombre;cantidad;precio;traslado.tipo;traslado.despacho;transporte.patente;transporte.chofer.rut;transporte.chofer.nombre;transporte.comuna_destino\n" +
        "52;76192083-9;Cliente SpA;Comercio;Calle 1;Santiago;Cemento 25 kg;40;3.990;1;2;ABCD12;11111111-1;Juan Soto;Maipú\n" +
        "52;76192083-9;Cliente SpA;Comercio;Calle 1;Santiago;Andamio;4;0;5;;;;;\n",
    );
    expect(sheet.problems).toEqual([]);
    expect(sheet.documents.map((d) => [d.params.tipo, d.params.traslado, d.params.transporte])).toEqual([
      [52, { tipo: 1, despacho: 2 }, { patente: "ABCD12", chofer: { rut: "11111111-1", nombre: "Juan Soto" }, comuna_destino: "Maipú" }],
      [52, { tipo: 5 }, undefined],
    ]);
  });

  test("credit notes from a sheet: the referencia columns make each note's reference", () => {
    const sheet = readEmissionSheet(
      "tipo;rut;razon_social;giro;direccion;comuna;nombre;cantidad;precio;referencia.tipo_doc;referencia.folio;referencia.fecha;referencia.razon;referencia.codigo\n" +
        "61;76192083-9;Cliente SpA;Comercio;Calle 1;Santiago;Devolución;1;5.000;33;120;03-11-2026;Devolución de mercadería;3\n" +
        "61;76192083-9;Cliente SpA;Comercio;Calle 1;Santiago;Anula;1;10.000;801;OC-77;2026-11-04;Anula;\n",
    );
    expect(sheet.problems).toEqual([]);
    expect(sheet.documents.map((d) => d.params.referencia)).toEqual([
      { tipo_doc: 33, folio: 120, fecha: "2026-11-03", razon: "Devolución de mercadería", codigo: 3 },
      { tipo_doc: 801, folio: "OC-77", fecha: "2026-11-04", razon: "Anula" },
    ]);
  });

  test("a boleta with no buyer is to the anonymous consumer at shelf prices; a cell that says otherwise wins", () => {
    const sheet = readEmissionSheet("tipo;rut;email;nombre;cantidad;precio;precios_brutos\n39;;;Pan;2;1.200;\n41;;ana@correo.cl;Libro;1;9.990;no\n33;;;Asesoría;1;10000;\n");
    expect(sheet.problems).toEqual([]);
    expect(sheet.documents.map((d): unknown[] => [d.params.receptor, d.params.precios_brutos])).toEqual([
      [{ rut: "66666666-6", razon_social: "Consumidor final" }, true],
      [{ rut: "66666666-6", razon_social: "Consumidor final", email: "ana@correo.cl" }, false],
      [{}, undefined], // a factura's receptor is the API's to require
    ]);
  });

  test("rows with the same documento are one document wherever they are; an empty documento continues the row above", () => {
    const sheet = readEmissionSheet("documento,tipo,receptor.rut,receptor.razon_social,item.nombre,item.cantidad,item.precio\nA,39,66666666-6,X,a,1,10\nB,39,66666666-6,Y,b,1,20\n,,,,b2,1,21\nA,,,,a2,1,11\n");
    expect(sheet.problems).toEqual([]);
    expect(sheet.documents.map((d) => [d.label, d.rows, d.params.items.map((i) => i.nombre)])).toEqual([
      ["A", [2, 5], ["a", "a2"]],
      ["B", [3, 4], ["b", "b2"]],
    ]);
  });

  test("every problem at once, each with its row and column; a document with a problem is not read", () => {
    const sheet = readEmissionSheet(
      [
        "tipo,fecha,rut,razon_social,nombre,cantidad,precio,exento,forma_pago",
        ",2026-11-25,1-9,X,huérfana,1,1,,",
        "33,31-02-2026,1-9,X,a,dos,1,,",
        "33,,1-9,Y,b,1,1,quizás,pronto",
        ",,2-7,,c,1,1,,",
        "34,,1-9,Z,,,,,",
        "35,,1-9,Z,d,1,1,,",
        "39,,66666666-6,Ok,e,1,1,,",
      ].join("\n"),
    );
    expect(sheet.problems.map((p) => [p.row, p.column, p.reason])).toEqual([
      [2, undefined, "no_document"],
      [3, "fecha", "invalid_value"],
      [3, "item.cantidad", "invalid_value"],
      [4, "item.exento", "invalid_value"],
      [4, "forma_pago", "invalid_value"],
      [5, "receptor.rut", "conflict"],
      [6, undefined, "no_items"],
      [7, "tipo", "invalid_value"],
    ]);
    expect(sheet.problems[1]?.message).toBe("fecha «31-02-2026» is not a date (2026-11-25 or 25-11-2026)");
    expect(sheet.problems[5]).toMatchObject({ value: "2-7", other: { row: 4, value: "1-9" } });
    expect(sheet.documents.map((d) => d.params.receptor.razon_social)).toEqual(["Ok"]);
  });

  test("an unknown or repeated column stops the reading before any row", () => {
    const sheet = readEmissionSheet("tipo,receptor.rut,rut,precio_unitario\n33,1-9,1-9,10\n");
    expect(sheet.problems.map((p) => [p.row, p.reason, p.value])).toEqual([
      [1, "duplicate_column", "rut"],
      [1, "unknown_column", "precio_unitario"],
    ]);
    expect(sheet.documents).toEqual([]);
    expect(readEmissionSheet("\n ; \n").problems[0]?.reason).toBe("empty");
  });

  test("rows are spreadsheet rows even when a cell spans lines", () => {
    const sheet = readEmissionSheet('tipo,rut,razon_social,nombre,descripcion,cantidad,precio\n39,66666666-6,X,a,"line one\nline two",1,1\n,,,b,,1,x\n');
    expect(sheet.problems.map((p) => p.row)).toEqual([3]);
  });

  test("rows as a user finds them", () => {
    expect([rowSpan([2]), rowSpan([2, 3, 4]), rowSpan([2, 5]), rowSpan([])]).toEqual(["2", "2–4", "2, 5", ""]);
  });

  test("an API error's field points at the line's row", () => {
    const [doc] = readEmissionSheet(emissionSheetTemplate()).documents;
    expect(rowOfField(doc!, "items[1].precio")).toBe(3);
    expect(rowOfField(doc!, "receptor.rut")).toBe(2);
    expect(rowOfField(doc!, undefined)).toBe(2);
  });

  test("an API error at its rows: one place per issue of a validation error, else one for the whole error", () => {
    const [doc] = readEmissionSheet(emissionSheetTemplate()).documents;
    const validation = {
      code: "VALIDATION_ERROR",
      message: "items[1].precio: must be ≥ 0",
      details: { field: "items[1].precio", reason: "minimum", errors: [{ field: "items[1].precio", reason: "minimum", message: "must be ≥ 0" }, { field: "receptor.rut", reason: "invalid_rut", message: "RUT no válido" }] },
    };
    expect(errorPlaces(doc!, validation).map((p) => [p.row, p.issue?.field, p.issue?.reason])).toEqual([[3, "items[1].precio", "minimum"], [2, "receptor.rut", "invalid_rut"]]);
    expect(errorPlaces(doc!, { code: "REFERENCE_INVALID", message: "no such folio", details: { field: "items[1].nombre" } })).toEqual([{ row: 3, field: "items[1].nombre" }]);
    expect(errorPlaces(doc!, { code: "FOLIOS_EXHAUSTED", message: "none left" })).toEqual([{ row: 2 }]);
    // A JSON Lines document: its line, whatever the field.
    expect(errorPlaces({ rows: [7] }, validation).map((p) => p.row)).toEqual([7, 7]);
  });
});

describe("failedRowsCsv", () => {
  test("only the failed documents' rows, with the reasons, and it reads back as those documents", () => {
    const sheet = readEmissionSheet(emissionSheetTemplate(";"));
    const [factura] = sheet.documents;
    const failed = failedRowsCsv(sheet, [{ document: factura!, row: 3, message: "items[1].precio: must be ≥ 0" }]);
    const records = parseCsv(failed, ";");
    expect(records.map((r) => r.at(-1))).toEqual(["error", "", "items[1].precio: must be ≥ 0"]);
    const again = readEmissionSheet(failed);
    expect(again.problems).toEqual([]);
    expect(again.documents.map((d) => d.params)).toEqual([factura!.params]);
    // a second run over the failed file replaces the error column instead of adding another
    const twice = failedRowsCsv(again, [{ document: again.documents[0]!, message: "still wrong" }]);
    expect(parseCsv(twice, ";")[0]?.filter((h) => h === "error")).toHaveLength(1);
  });
});

describe("chunkDocuments and withContentKeys", () => {
  const doc = (nombre: string) => ({ tipo: 39 as const, receptor: { rut: "66666666-6", razon_social: "CF" }, items: [{ nombre, cantidad: 1, precio: 1 }] });

  test("at most maxDocuments per chunk and maxBytes of JSON; a document larger than the limit goes alone", () => {
    const docs = Array.from({ length: 7 }, (_, i) => doc(`n${i}`));
    expect(chunkDocuments(docs, { maxDocuments: 3 }).map((c) => [c.start, c.documents.length])).toEqual([[0, 3], [3, 3], [6, 1]]);
    const size = JSON.stringify(docs[0]).length + 1;
    const bySize = chunkDocuments(docs, { maxBytes: 16 + size * 2 });
    expect(bySize.map((c) => c.documents.length)).toEqual([2, 2, 2, 1]);
    for (const chunk of bySize) expect(JSON.stringify({ documents: chunk.documents }).length).toBeLessThanOrEqual(16 + size * 2);
    const big = [doc("x".repeat(100)), doc("a")];
    expect(chunkDocuments(big, { maxBytes: 50 }).map((c) => c.documents.length)).toEqual([1, 1]);
    expect(chunkDocuments([])).toEqual([]);
  });

  test("a document's key is its content's and its place among equal ones: the same sheet again gives the same keys", async () => {
    const keys = async (docs: ReturnType<typeof doc>[]) => (await withContentKeys(docs)).map((d) => d.idempotency_key);
    const first = await keys([doc("a"), doc("b"), doc("a")]);
    expect(first[0]).toMatch(/^doc-[0-9a-f]{40}-1$/);
    expect(first[2]).toBe(first[0]?.replace(/-1$/, "-2"));
    expect(await keys([doc("a"), doc("b"), doc("a")])).toEqual(first);
    // A row inserted before them or one document changed leaves the others' keys as they were.
    const edited = await keys([doc("z"), doc("a"), doc("B"), doc("a")]);
    expect([edited[1], edited[3]]).toEqual([first[0], first[2]]);
    expect(edited[2]).not.toBe(first[1]);
  });
});

describe("documentsCsv", () => {
  test("one row per document, amounts as plain integers, quoted where needed, with a BOM for Excel", () => {
    const dte = {
      id: "dte_1", tipo: 33, folio: 7, fecha_emision: "2026-11-25T12:00:00Z", fecha: "2026-11-25",
      receptor: { rut: "76192083-9", razon_social: 'Tostaduría "El Sur"; Ltda.' },
      monto_neto: 100000, monto_exento: 0, monto_iva: 19000, monto_total: 119000, estado: "ACEPTADO", track_id: null,
      pdf_url: "", xml_url: "", environment: "test", created_at: "2026-11-25T12:00:00Z",
    } as const;
    const text = documentsCsv([dte], ";");
    expect(text).toBe(
      "\uFEFFid;tipo;folio;fecha;receptor_rut;receptor_razon_social;monto_neto;monto_exento;monto_iva;monto_total;estado;track_id\r\n" +
        'dte_1;33;7;2026-11-25;76192083-9;"Tostaduría ""El Sur""; Ltda.";100000;0;19000;119000;ACEPTADO;\r\n',
    );
    expect(parseCsv(documentsCsv([dte]).slice(1), ",")[1]?.[5]).toBe('Tostaduría "El Sur"; Ltda.');
  });
});
