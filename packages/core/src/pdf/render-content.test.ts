/** What the printed pages say: mupdf structured text of rendered documents. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import type { DocumentInput } from "../document/types.js";
import { CASES } from "../../test/support/document-cases.js";
import { isTimbreError } from "../errors/index.js";
import { makeInput, makePrintable } from "../../test/support/pdf-fixtures.js";
import { decodePdf417, pageCount, pageTexts, rasterize, rasterizeJpeg } from "../../test/support/pdf.js";
import { ACUSE_TEXT } from "./content.js";
import { formatMoney } from "./format.js";
import { renderPdf } from "./render-pdf.js";
import type { RenderOptions } from "./types.js";

const flat = (s: string): string => s.replace(/\s+/g, " ");
const countOf = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

async function textOf(printable: Parameters<typeof renderPdf>[0], options: RenderOptions = {}): Promise<string> {
  return flat(pageTexts(await renderPdf(printable, options)).join("\n"));
}

describe.each(["carta", "termica"] as const)("%s text", (formato) => {
  test("factura 33: box, RUTs, receiver, references, totals as printed, timbre legends", async () => {
    const p = makePrintable(makeInput(33, 5));
    const text = await textOf(p, { formato });
    for (const s of [
      "R.U.T.: 76.192.083-9", "FACTURA ELECTRÓNICA", "N° 87", "S.I.I. - SANTIAGO ORIENTE", "SASCO SpA",
      "77.123.456-9", "Comercializadora Ñuñoa Limitada", "20 de noviembre de 2026", "Crédito", "Orden de compra",
      "OC-4521", "15-11-2026", "Monto neto", formatMoney(p.totals.montoNeto), "IVA 19 %", formatMoney(p.totals.montoIva),
      "TOTAL", formatMoney(p.totals.montoTotal), "Timbre Electrónico SII", "Res. 0 de 2026",
      "Verifique documento: www.sii.cl", "Teclado mecánico español #01", "Entregar en bodega 3.",
    ]) expect(text).toContain(s);
    expect(text).not.toContain("CEDIBLE");
    expect(text).not.toContain("SIN VALIDEZ TRIBUTARIA");
  });

  test("additional taxes print one line each, named with their rate, between IVA and the total", async () => {
    const p = makePrintable(CASES["33 impuestos adicionales"] as DocumentInput);
    const text = await textOf(p, { formato });
    for (const [label, amount] of [["ILA azucaradas 18 %", 9450], ["ILA analcohólicas 10 %", 787], ["ILA vinos 20,5 %", 6138], ["ILA cervezas 20,5 %", 4502], ["ILA licores 31,5 %", 5034]] as const) {
      expect(text).toContain(`${label} ${formatMoney(amount)}`);
    }
    expect(text.indexOf("IVA 19 %")).toBeLessThan(text.indexOf("ILA azucaradas"));
    expect(text).toContain(`TOTAL ${formatMoney(181499)}`);
  });

  test("exempt 34 and 41 show only Exento and Total", async () => {
    for (const tipo of [34, 41] as const) {
      const p = makePrintable(makeInput(tipo, 3));
      const text = await textOf(p, { formato });
      expect(text).toContain(tipo === 34 ? "FACTURA NO AFECTA O EXENTA ELECTRÓNICA" : "BOLETA EXENTA ELECTRÓNICA");
      expect(text).toContain("Monto exento");
      expect(text).toContain(formatMoney(p.totals.montoTotal));
      expect(text).not.toContain("IVA");
      expect(text).not.toContain("Monto neto");
    }
  });

  test("notes print the reference and CodRef in words", async () => {
    const nc = await textOf(makePrintable(makeInput(61, 2)), { formato });
    expect(nc).toContain("NOTA DE CRÉDITO ELECTRÓNICA");
    expect(nc).toContain("Factura electrónica");
    expect(nc).toContain("Anula documento de referencia: Anula factura por devolución");
    const nd = await textOf(makePrintable(makeInput(56, 2)), { formato });
    expect(nd).toContain("NOTA DE DÉBITO ELECTRÓNICA");
    expect(nd).toContain("Corrige montos: Intereses por mora");
  });

  test("cedible 33/34: acuse de recibo with the Ley 19.983 sentence and CEDIBLE", async () => {
    for (const tipo of [33, 34] as const) {
      const text = await textOf(makePrintable(makeInput(tipo, 2)), { formato, cedible: true });
      expect(text).toContain("CEDIBLE");
      expect(text).toContain("ACUSE DE RECIBO");
      for (const field of ["Nombre:", "R.U.T.:", "Fecha:", "Recinto:", "Firma:"]) expect(text).toContain(field);
      expect(text).toContain(ACUSE_TEXT);
    }
  });

  test("guía 52: traslado and despacho in words, the transport block, no forma de pago; cedible con su factura", async () => {
    const p = makePrintable(makeInput(52, 3));
    const text = await textOf(p, { formato });
    for (const s of [
      "GUÍA DE DESPACHO ELECTRÓNICA", "N° 87", "Comercializadora Ñuñoa Limitada",
      "Tipo de traslado: Operación constituye venta",
      "Tipo de despacho: Por cuenta del emisor a instalaciones del cliente",
      "Patente: BBCL45", "Transportista: R.U.T. 77.777.777-7", "Chofer: José Ñancupil Araya, R.U.T. 12.345.678-5",
      "Destino: Camino a Melipilla 12345, bodega 3, Maipú, Santiago",
      "Orden de compra", "OC-4521", "Monto neto", formatMoney(p.totals.montoNeto), "IVA 19 %", `TOTAL ${formatMoney(p.totals.montoTotal)}`,
      "Timbre Electrónico SII",
    ]) expect(text).toContain(s);
    expect(text).not.toContain("Forma de pago");
    expect(text).not.toContain("CEDIBLE");
    const cedible = await textOf(p, { formato, cedible: true });
    expect(cedible).toContain("CEDIBLE CON SU FACTURA");
    expect(cedible).toContain(ACUSE_TEXT);
  });

  test("guía 52 without prices or transport: the traslado, no despacho, no transport block, totals of 0", async () => {
    const p = makePrintable(CASES["52 traslado interno"] as DocumentInput);
    const text = await textOf(p, { formato });
    expect(text).toContain("Tipo de traslado: Traslados internos");
    expect(text).toContain(`TOTAL ${formatMoney(0)}`);
    for (const absent of ["Tipo de despacho", "Patente", "Transportista", "Chofer", "Destino", "Monto neto", "IVA"]) expect(text).not.toContain(absent);
    expect(await decodePdf417(rasterize(await renderPdf(p, { formato }), 0, 300))).toEqual([p.ted ?? ""]);
  });

  test("cedible is ignored for 39, 41, 56 and 61 (no transferable copy exists)", async () => {
    for (const tipo of [39, 41, 56, 61] as const) {
      const text = await textOf(makePrintable(makeInput(tipo, 2)), { formato, cedible: true });
      expect(text).not.toContain("CEDIBLE");
      expect(text).not.toContain("acuse de recibo");
    }
  });

  test("preview (ted null or preview: true): no folio, no timbre, SIN VALIDEZ TRIBUTARIA", async () => {
    const signed = makePrintable(makeInput(33, 2));
    for (const [printable, options] of [
      [{ ...signed, ted: null, resolution: null }, { formato }],
      [signed, { formato, preview: true }],
    ] as const) {
      const pdf = await renderPdf(printable, options);
      const text = flat(pageTexts(pdf).join("\n"));
      expect(text).toContain("SIN VALIDEZ TRIBUTARIA");
      expect(text).toContain("N° —");
      expect(text).not.toContain("N° 87");
      expect(text).not.toContain("Timbre Electrónico SII");
      expect(await decodePdf417(rasterize(pdf, pageCount(pdf) - 1, 300))).toEqual([]);
    }
  });
});

test("a 60-line invoice spans pages: every line once, continúa marks, timbre only on the last page", async () => {
  const p = makePrintable(makeInput(33, 60));
  const pdf = await renderPdf(p, { cedible: true });
  const pages = pageTexts(pdf).map(flat);
  const n = pages.length;
  expect(n).toBeGreaterThanOrEqual(3);
  const all = pages.join(" ");
  for (const item of p.input.items) expect(countOf(all, item.nombre)).toBe(1);
  pages.forEach((text, i) => {
    expect(text).toContain(`Página ${i + 1} de ${n}`);
    expect(text).toContain("N° 87");
    if (i < n - 1) expect(text).toContain("P. Unitario");
    else expect(text).toMatch(/Descripción \(continuación\)|Referencias/); // never a page with only totals
    expect(text.includes("Timbre Electrónico SII")).toBe(i === n - 1);
    expect(text.includes("CEDIBLE")).toBe(i === n - 1);
    if (i < n - 1) expect(text).toContain(`continúa en la página ${i + 2}`);
    if (i > 0 && i < n - 1) expect(text).toContain("Descripción (continuación)");
  });
  expect(countOf(all, "Comercializadora Ñuñoa Limitada")).toBe(1); // receiver block on page 1 only
  for (let i = 0; i < n; i++) {
    expect(await decodePdf417(rasterize(pdf, i, 300))).toEqual(i === n - 1 ? [p.ted ?? ""] : []);
  }
});

test("references flow across pages too: 60 lines, 40 references, long observaciones", async () => {
  const base = makeInput(33, 60);
  const referencias = Array.from({ length: 40 }, (_, i) => ({
    tipoDoc: 801, folio: `OC-${1000 + i}`, fecha: "2026-11-01", razon: `Pedido parcial número ${i + 1} de la obra Ñuble`,
  }));
  const p = makePrintable({ ...base, referencias, observaciones: "Despacho en tres partes. ".repeat(40) });
  const pdf = await renderPdf(p, { cedible: true });
  const pages = pageTexts(pdf).map(flat);
  const all = pages.join(" ");
  for (const r of referencias) expect(countOf(all, `${r.folio} `)).toBe(1);
  expect(pages.at(-1)).toContain(formatMoney(p.totals.montoTotal));
  expect(pages.at(-1)).toContain("Referencias (continuación)");
  expect(countOf(all, "Despacho en tres partes.")).toBe(40); // 1 000 characters of observaciones, printed whole
  expect(countOf(all, "Timbre Electrónico SII")).toBe(1);
  expect(await decodePdf417(rasterize(pdf, pages.length - 1, 300))).toEqual([p.ted ?? ""]);
});


test("no resolution: the Res. line is left out; no lines: still renders", async () => {
  const p = makePrintable(makeInput(33, 1));
  const text = await textOf({ ...p, resolution: null });
  expect(text).toContain("Timbre Electrónico SII");
  expect(text).not.toContain("Res. ");
  const empty = await textOf({ ...p, input: { ...p.input, items: [] } }, { formato: "carta" });
  expect(empty).toContain("TOTAL");
  expect(await textOf({ ...p, input: { ...p.input, items: [] } }, { formato: "termica" })).toContain("TOTAL");
});

test("characters outside WinAnsi never crash the render", async () => {
  const p = makePrintable(makeInput(33, 2));
  const input = { ...p.input, observaciones: "Gracias 😀 → ✓ 漢字", items: [{ ...p.input.items[0], nombre: "Café ☕ ā" }] };
  const text = await textOf({ ...p, input: { ...input, items: input.items.map((i) => ({ ...i, cantidad: 1, precio: 1 })) } });
  expect(text).toContain("Gracias ? ? ? ??");
  expect(text).toContain("Café ? a");
});

test("logo: PNG and JPEG are drawn, invalid bytes are a VALIDATION_ERROR", async () => {
  const p = makePrintable(makeInput(39, 1));
  const sample = await renderPdf(p, { formato: "termica" });
  const png = rasterize(sample, 0, 20);
  const jpeg = rasterizeJpeg(sample, 0, 20);
  for (const formato of ["carta", "termica"] as const) {
    const plain = await renderPdf(p, { formato });
    const withPng = await renderPdf(p, { formato, logo: { bytes: png, type: "png" } });
    const withJpeg = await renderPdf(p, { formato, logo: { bytes: jpeg, type: "jpeg" } });
    expect(withPng.length).toBeGreaterThan(plain.length);
    expect(withJpeg.length).toBeGreaterThan(plain.length);
    expect(await decodePdf417(rasterize(withPng, 0, 300))).toEqual([p.ted ?? ""]);
  }
  const error = await renderPdf(p, { logo: { bytes: new Uint8Array([1, 2, 3]), type: "png" } }).catch((e: unknown) => e);
  expect(isTimbreError(error, "VALIDATION_ERROR")).toBe(true);
});

test("src/pdf stays pure and is not exported from the package root", () => {
  const dir = new URL(".", import.meta.url);
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const source = readFileSync(new URL(file, dir), "utf8");
    expect(source).not.toMatch(/from "node:(fs|net|http|child_process)"|process\.env|Date\.now\(|new Date\(\)/);
  }
  expect(readFileSync(new URL("../index.ts", dir), "utf8")).not.toMatch(/pdf/);
});
