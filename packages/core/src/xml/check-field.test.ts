import { expect, test } from "bun:test";
import { siiTextIssues } from "./index.js";

test("siiTextIssues: ISO-8859-1 without controls, one line when asked; absent text is no issue", () => {
  expect(siiTextIssues("razon_social", "Panadería Ñuñoa Ltda. º", { singleLine: true })).toEqual([]);
  expect(siiTextIssues("giro", undefined)).toEqual([]);
  expect(siiTextIssues("ciudad", null)).toEqual([]);
  expect(siiTextIssues("razon_social", "Café ☕", { singleLine: true })).toEqual([
    { path: "razon_social", reason: "charset", message: 'character "☕" (U+2615) cannot be written in ISO-8859-1 SII XML' },
  ]);
  expect(siiTextIssues("giro", "Venta\u0007", { singleLine: true }).map((i) => i.reason)).toEqual(["charset"]);
  expect(siiTextIssues("giro", "Venta\u0085", { singleLine: true }).map((i) => i.reason)).toEqual(["charset"]);
  expect(siiTextIssues("direccion", "Calle 1\nDepto 2", { singleLine: true }).map((i) => i.reason)).toEqual(["format"]);
  expect(siiTextIssues("observaciones", "Línea 1\nLínea 2")).toEqual([]);
});
