import { describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { formatDateShort, formatDateWords, formatMoney, formatNumber } from "./format.js";
import { drawnWidth, toWinAnsi, wrapText } from "./text.js";
import { documentName, paymentTermName, referenceCodeName, referenceTypeName } from "./words.js";

describe("words", () => {
  test("document names", () => {
    expect([33, 34, 39, 41, 52, 56, 61].map(documentName)).toEqual([
      "FACTURA ELECTRÓNICA",
      "FACTURA NO AFECTA O EXENTA ELECTRÓNICA",
      "BOLETA ELECTRÓNICA",
      "BOLETA EXENTA ELECTRÓNICA",
      "GUÍA DE DESPACHO ELECTRÓNICA",
      "NOTA DE DÉBITO ELECTRÓNICA",
      "NOTA DE CRÉDITO ELECTRÓNICA",
    ]);
    expect(documentName(999)).toBe("DOCUMENTO TIPO 999");
  });

  test("reference types, CodRef and FmaPago", () => {
    expect(referenceTypeName(801)).toBe("Orden de compra");
    expect(referenceTypeName("820")).toBe("Registro de acuerdos con plazo de pago excepcional");
    expect(referenceTypeName(33)).toBe("Factura electrónica");
    expect(referenceTypeName("SET")).toBe("Set de pruebas SII");
    expect(referenceTypeName("INTERNO-7")).toBe("INTERNO-7");
    expect([1, 2, 3].map((c) => referenceCodeName(c))).toEqual([
      "Anula documento de referencia",
      "Corrige texto del documento de referencia",
      "Corrige montos",
    ]);
    expect(referenceCodeName(undefined)).toBe("");
    expect([1, 2, 3].map((c) => paymentTermName(c))).toEqual(["Contado", "Crédito", "Sin costo (entrega gratuita)"]);
  });
});

describe("formats", () => {
  test("money with Chilean dots", () => {
    expect(formatMoney(1234567)).toBe("$ 1.234.567");
    expect(formatMoney(0)).toBe("$ 0");
    expect(formatMoney(999)).toBe("$ 999");
    expect(formatMoney(-5000)).toBe("-$ 5.000");
  });

  test("numbers with decimal comma", () => {
    expect(formatNumber("1234.50")).toBe("1.234,5");
    expect(formatNumber(1.5)).toBe("1,5");
    expect(formatNumber("10.000000")).toBe("10");
    expect(formatNumber("abc")).toBe("abc");
  });

  test("dates", () => {
    expect(formatDateWords("2026-01-15")).toBe("15 de enero de 2026");
    expect(formatDateWords("2026-12-01")).toBe("1 de diciembre de 2026");
    expect(formatDateShort("2026-01-15")).toBe("15-01-2026");
  });
});

describe("WinAnsi text", () => {
  test("keeps Spanish letters and symbols, replaces the rest without throwing", () => {
    expect(toWinAnsi("áéíóúÁÉÍÓÚñÑüº°¿¡ €")).toBe("áéíóúÁÉÍÓÚñÑüº°¿¡ €");
    expect(toWinAnsi("Ñandú 😀 ā → 漢\tx\u00a0y")).toBe("Ñandú ? a ? ? x y");
  });

  test("measures text as drawn, without the kerning pdf-lib subtracts but never applies", async () => {
    const doc = await PDFDocument.create();
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const legend = "CEDIBLE CON SU FACTURA";
    const drawn = [...legend].reduce((w, ch) => w + bold.widthOfTextAtSize(ch, 15), 0);
    expect(drawnWidth(bold, legend, 15)).toBeCloseTo(drawn, 6);
    expect(drawnWidth(bold, legend, 15)).toBeGreaterThan(bold.widthOfTextAtSize(legend, 15) + 1);
  });

  test("wraps, breaks long words and ellipsizes", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const lines = wrapText("Servicio de Impuestos Internos", font, 9, 60);
    expect(lines.join(" ")).toBe("Servicio de Impuestos Internos");
    for (const l of lines) expect(font.widthOfTextAtSize(l, 9)).toBeLessThanOrEqual(60);
    const long = wrapText("A".repeat(100), font, 9, 50);
    expect(long.join("")).toBe("A".repeat(100));
    const cut = wrapText("uno dos tres cuatro cinco seis siete", font, 9, 40, 2);
    expect(cut).toHaveLength(2);
    expect(cut[1]?.endsWith("…")).toBe(true);
    expect(wrapText("línea 1\nlínea 2 😀", font, 9, 200)).toEqual(["línea 1", "línea 2 ?"]);
  });
});
