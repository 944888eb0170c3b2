// The spreadsheet import's problems said in Spanish from their reason, column and value (no browser).
import { describe, expect, test } from "bun:test";
import { readEmissionSheet, type SheetProblem } from "@timbre/sdk/csv";
import { describeSheetProblem } from "../src/lib/sheet-messages.js";

const said = (csv: string) => readEmissionSheet(csv).problems.map((p) => [p.row, p.reason, describeSheetProblem(p)]);

describe("describeSheetProblem", () => {
  test("every problem of a row-level sheet, with the cell as written and what it should hold", () => {
    const problems = said(
      [
        "tipo;fecha;rut;razon_social;nombre;cantidad;precio;exento;forma_pago",
        ";2026-11-25;1-9;X;huérfana;1;1;;",
        "33;31-02-2026;1-9;X;a;dos;1;;",
        "33;;1-9;Y;b;1;1;quizás;pronto",
        ";;2-7;;c;1;1;;",
        "34;;1-9;Z;;;;;",
        "35;;1-9;Z;d;1;1;;",
      ].join("\n"),
    );
    expect(problems).toEqual([
      [2, "no_document", "La fila no dice a qué documento pertenece: escribe su documento o su tipo (no hay un documento más arriba al que sumarla como línea)."],
      [3, "invalid_value", "«31-02-2026» no es una fecha (25-11-2026 o 2026-11-25)."],
      [3, "invalid_value", "«dos» no es un número (2,5 o 12.990)."],
      [4, "invalid_value", "«quizás» no es sí o no."],
      [4, "invalid_value", "«pronto» no es una forma de pago (1 contado, 2 crédito o 3 sin costo)."],
      [5, "conflict", "receptor.rut dice «2-7» aquí, pero la fila 4 del mismo documento dice «1-9». Repite el mismo valor o deja la celda vacía."],
      [6, "no_items", "El documento no tiene líneas: escribe nombre, cantidad y precio en sus filas."],
      [7, "invalid_value", "«35» no es un tipo de documento (33, 34, 39, 41, 52, 56 o 61)."],
    ]);
  });

  test("header problems and an empty file", () => {
    expect(said("tipo,receptor.rut,rut,precio_unitario\n33,1-9,1-9,10\n")).toEqual([
      [1, "duplicate_column", "La columna receptor.rut aparece dos veces (una de ellas como «rut»). Deja solo una."],
      [1, "unknown_column", "No existe la columna «precio_unitario». Las columnas se llaman como los campos de la API (tipo, rut, razon_social, nombre, cantidad, precio…): revisa cómo está escrita o descarga la plantilla."],
    ]);
    expect(said("\n;\n")).toEqual([[1, "empty", "El archivo está vacío: debe tener una fila de encabezados y una fila por cada línea de documento."]]);
  });

  test("the SDK's English message only for a reason it adds later", () => {
    const later = { row: 4, reason: "too_many_lines", message: "the document has 61 lines" } as unknown as SheetProblem;
    expect(describeSheetProblem(later)).toBe("the document has 61 lines");
  });
});

