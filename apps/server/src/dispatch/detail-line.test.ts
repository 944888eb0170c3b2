import { describe, expect, test } from "bun:test";
import { parseBoletaStatus } from "@timbre/sii";
import { lineOf } from "./detail-line.js";

const line = (folio: number, tipo?: number) => ({
  ...(tipo === undefined ? {} : { tipo }),
  folio,
  estado: "RCH",
  descripcion: "Dte Rechazado",
  error: [{ seccion: "HED", linea: 1, nivel: 3, codigo: 305, descripcion: "Fecha de emisión anterior a la autorización", detalle: null }],
});
const counts = (tipo: number) => ({ tipo, informados: 2, aceptados: 1, rechazados: 1, reparos: 0 });

describe("the SII's per-document detail of a boleta envelope", () => {
  test("a line with its tipo and folio is the document's; other folios and tipos are not", () => {
    const status = parseBoletaStatus({ estado: "EPR", estadistica: [counts(39), counts(41)], detalle_rep_rech: [line(7, 39)] });
    expect(lineOf(status, { tipo: 39, folio: 7 })).toMatchObject({ tipo: 39, folio: 7, estado: "RCH", errors: [{ codigo: "HED-3-305" }] });
    expect(lineOf(status, { tipo: 41, folio: 7 })).toBeNull();
    expect(lineOf(status, { tipo: 39, folio: 8 })).toBeNull();
  });

  test("a line without tipo in an envelope of one tipo is that tipo's", () => {
    const status = parseBoletaStatus({ estado: "EPR", estadistica: [counts(39)], detalle_rep_rech: [line(7)] });
    expect(lineOf(status, { tipo: 39, folio: 7 })).toMatchObject({ estado: "RCH" });
  });

  test("a line without tipo in an envelope of 39 and 41 cannot say which folio 7 it is about: unsure, not accepted", () => {
    const status = parseBoletaStatus({ estado: "EPR", estadistica: [counts(39), counts(41)], detalle_rep_rech: [line(7)] });
    expect(lineOf(status, { tipo: 39, folio: 7 })).toBe("unsure");
    expect(lineOf(status, { tipo: 41, folio: 7 })).toBe("unsure");
    expect(lineOf(status, { tipo: 41, folio: 9 })).toBeNull();
  });

  test("an envelope status without detail (EnvioDTE, QueryEstUp) has no line", () => {
    expect(lineOf({}, { tipo: 33, folio: 7 })).toBeNull();
  });
});
