// The sales summary's arithmetic and the CSV writer, without a server.
import { describe, expect, test } from "bun:test";
import type { Dte } from "@timbre/sdk";
import { toCsv } from "../src/lib/csv.js";
import { monthRange, summarizeSales } from "../src/lib/sales-summary.js";

const doc = (tipo: number, estado: Dte["estado"], neto: number, exento: number, iva: number): Dte =>
  ({ id: `dte_${tipo}${neto}`, tipo, folio: 1, fecha: "2026-11-02", receptor: { rut: "76192083-9", razon_social: "X" }, monto_neto: neto, monto_exento: exento, monto_iva: iva, monto_total: neto + exento + iva, estado }) as Dte;

describe("summarizeSales", () => {
  test("credit notes subtract, debit notes add, exempt tipos carry no IVA, rejected documents do not count", () => {
    const s = summarizeSales([
      doc(33, "ACEPTADO", 1000, 0, 190),
      doc(33, "ACEPTADO_CON_REPAROS", 2000, 500, 380),
      doc(34, "ACEPTADO", 0, 700, 0),
      doc(39, "ENVIADO", 840, 0, 160),
      doc(56, "ACEPTADO", 100, 0, 19),
      doc(61, "PENDIENTE", 500, 0, 95),
      doc(33, "RECHAZADO", 9000, 0, 1710),
    ]);
    expect(s.rows.map((r) => [r.tipo, r.documentos, r.monto_iva, r.monto_total])).toEqual([
      [33, 2, 570, 4070],
      [34, 1, 0, 700],
      [39, 1, 160, 1000],
      [56, 1, 19, 119],
      [61, 1, 95, 595],
    ]);
    expect(s.debito_fiscal).toBe(570 + 160 + 19 - 95);
    expect(s.total_neto_de_notas).toBe(4070 + 700 + 1000 + 119 - 595);
    expect(s.rechazados).toBe(1);
    expect(s.sin_respuesta).toBe(2);
  });

  test("months, leap years included; anything else is refused", () => {
    expect(monthRange("2026-11")).toEqual({ desde: "2026-11-01", hasta: "2026-11-30" });
    expect(monthRange("2028-02")).toEqual({ desde: "2028-02-01", hasta: "2028-02-29" });
    expect(monthRange("2026-12")?.hasta).toBe("2026-12-31");
    for (const bad of ["2026-13", "2026-1", "noviembre", "2026-11-01"]) expect(monthRange(bad)).toBeNull();
  });
});

test("CSV quotes what needs quoting, for either separator", () => {
  const rows = [{ a: 'Tostaduría "El Sur"; Ltda.', b: 5 }, { a: "dos\nlíneas", b: null }];
  const columns = [{ header: "a", get: (r: (typeof rows)[number]) => r.a }, { header: "b", get: (r: (typeof rows)[number]) => r.b }];
  expect(toCsv(rows, columns, ";")).toBe('a;b\r\n"Tostaduría ""El Sur""; Ltda.";5\r\n"dos\nlíneas";\r\n');
  expect(toCsv(rows, columns)).toBe('a,b\r\n"Tostaduría ""El Sur""; Ltda.",5\r\n"dos\nlíneas",\r\n');
});
