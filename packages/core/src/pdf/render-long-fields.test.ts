/**
 * Fields at their longest (formato DTE lengths) print whole and never overprint one another: mupdf structured text
 * of rendered documents, down to each glyph's box.
 */
import { describe, expect, test } from "bun:test";
import * as mupdf from "mupdf";
import type { DocumentInput, Line } from "../document/types.js";
import { makeInput, makePrintable, PDF_ISSUER } from "../../test/support/pdf-fixtures.js";
import { decodePdf417, pageTexts, rasterize } from "../../test/support/pdf.js";
import { MARGIN } from "./carta-header.js";
import { formatMoney, formatNumber } from "./format.js";
import { renderPdf } from "./render-pdf.js";
import { ROLL_MARGIN } from "./termica.js";
import type { RenderOptions } from "./types.js";

const flat = (s: string): string => s.replace(/\s+/g, " ");
/** `text` cut or padded to exactly `n` characters (the field's maximum). */
const sized = (text: string, n: number): string => text.slice(0, n).trimEnd().padEnd(n, "x");

interface Glyph {
  c: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Every glyph of every page with its ink box, roughly: advance width × cap height and descender (top-left origin). */
function glyphs(pdf: Uint8Array): Glyph[][] {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  return Array.from({ length: doc.countPages() }, (_, i) => {
    const found: Glyph[] = [];
    doc.loadPage(i).toStructuredText("preserve-whitespace").walk({
      onChar(c, origin, _font, size, q) {
        if (c.trim() === "") return;
        const [, baseline] = origin;
        found.push({ c, x0: Math.min(q[0], q[4]), y0: baseline - 0.75 * size, x1: Math.max(q[2], q[6]), y1: baseline + 0.2 * size });
      },
    });
    return found;
  });
}

/** Pairs of glyphs whose boxes overlap by more than a hair (adjacent letters and lines only touch). */
function overprints(page: Glyph[]): string[] {
  const hits: string[] = [];
  const sorted = [...page].sort((a, b) => a.x0 - b.x0);
  sorted.forEach((a, i) => {
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j];
      if (!b || b.x0 >= a.x1 - 0.5) break;
      const dx = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const dy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (dx > 0.5 && dy > 2) hits.push(`"${a.c}" over "${b.c}" at ${Math.round(a.x0)},${Math.round(a.y0)}`);
    }
  });
  return hits;
}

/** Glyphs in the side margins (text run past its column, off the page or into the printer's edge); 1 pt slack. */
function outsideMargins(pdf: Uint8Array, margin: number): string[] {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  return glyphs(pdf).flatMap((page, i) => {
    const [left, , right] = doc.loadPage(i).getBounds();
    return page.filter((g) => g.x0 < left + margin - 1 || g.x1 > right - margin + 1).map((g) => `"${g.c}" at ${Math.round(g.x0)}–${Math.round(g.x1)} on page ${i + 1}`);
  });
}

const LONG_DESCRIPTION = sized(`Incluye ${"instalación, configuración y soporte remoto durante doce meses; ".repeat(20)}`, 999) + "Z";

/** Observaciones at the API's longest (1 000 characters), as 25 short lines: a delivery schedule. */
const LONG_OBSERVACIONES = sized(
  Array.from({ length: 25 }, (_, i) => `Entrega ${String(i + 1).padStart(2, "0")}: bodega central, rampa ${(i % 3) + 1}, 09:00`).join("\n"),
  1000,
);

/** Every field at its longest: 100-character names, a 1000-character description, an 18-character folio, prices of
 * 12 integer and 6 decimal digits, line discounts. */
function longInput(tipo: 33 | 52 | 61): DocumentInput {
  const base = makeInput(tipo, 0);
  if (tipo === 52) {
    // the longest words of either code Timbre takes, every transport field at its DTE_v10 maximum
    base.traslado = { indicador: 1, despacho: 2 };
    base.transporte = {
      patente: "ABCD-123", rutTransportista: "76354771-K",
      chofer: { rut: "12345678-5", nombre: sized("María José de los Ángeles Valenzuela", 30) },
      direccionDestino: sized("Camino Interior Fundo Los Aromos Parcela 14 Lote B, Bodega de Acopio Norte", 70),
      comunaDestino: sized("San Pedro de la Paz", 20), ciudadDestino: sized("Concepción Metropolitano", 20),
    };
  }
  const items: Line[] = [
    { codigo: "NB-14", nombre: sized("Notebook ultradelgado de catorce pulgadas con procesador de última generación", 80),
      descripcion: LONG_DESCRIPTION, cantidad: 1, unidad: "UN", precio: 999999, descuentoPorcentaje: 10 },
    { nombre: "Tornillo", cantidad: "123456.123456", unidad: "UNID", precio: "12345678.123456", descuentoPorcentaje: "12.5" },
    { nombre: "Licencia", cantidad: 1, precio: "123456789012.123456" },
  ];
  return {
    ...base,
    issuer: { ...PDF_ISSUER,
      razonSocial: sized("Sociedad Comercializadora e Importadora de Productos Electrónicos y Tecnológicos del Pacífico Sur", 100),
      giro: sized("Importación, exportación, distribución y comercialización al por mayor y menor de equipos", 80),
      direccion: sized("Avenida Libertador General Bernardo O'Higgins 3456, Torre Poniente, Oficina 1203", 70),
      unidadSii: sized("Dirección de Grandes Contribuyentes Santiago Oriente", 40) },
    receiver: { rut: "77777777-7",
      razonSocial: sized("Corporación Municipal de Desarrollo Social y Educación de la Ilustre Municipalidad de Pedro Aguirre", 100),
      giro: sized("Educación, salud y atención de menores y actividades", 40),
      direccion: sized("Calle Doctor Sótero del Río Número 2345 Departamento 1502 Torre B Condominio", 70),
      comuna: "Pedro Aguirre Cerda", ciudad: "Santiago" },
    items,
    observaciones: LONG_OBSERVACIONES,
    referencias: [
      ...(base.referencias ?? []),
      { tipoDoc: 801, folio: "OC-123456789012345", fecha: "2026-01-10", razon: "Orden de compra del cliente" },
    ],
  };
}

const VARIANTS: Array<[string, RenderOptions, number]> = [
  ["carta", {}, MARGIN], ["cedible", { cedible: true }, MARGIN], ["termica", { formato: "termica" }, ROLL_MARGIN],
];

describe.each(VARIANTS)("%s at the formato's longest", (_name, options, margin) => {
  test.each([33, 52, 61] as const)("tipo %i: mandatory fields whole, discount amounts, no text overprinting another", async (tipo) => {
    const p = makePrintable(longInput(tipo));
    const pdf = await renderPdf(p, options);
    const text = flat(pageTexts(pdf).join("\n"));
    const { issuer, receiver, items } = p.input;
    for (const s of [issuer.razonSocial, issuer.giro, receiver.razonSocial, receiver.direccion ?? "", LONG_DESCRIPTION, LONG_OBSERVACIONES,
      "OC-123456789012345", "10-01-2026", "123.456.789.012,123456", "123.456,123456", formatMoney(p.totals.montoTotal),
      `S.I.I. - ${(issuer.unidadSii ?? "").toUpperCase()}`]) {
      expect(text).toContain(flat(s));
    }
    const t = p.input.transporte;
    if (t) {
      for (const s of [t.patente, t.chofer?.nombre, t.direccionDestino, t.comunaDestino, t.ciudadDestino, "76.354.771-K",
        "Operación constituye venta", "Por cuenta del emisor a instalaciones del cliente"]) {
        expect(text).toContain(flat(s ?? ""));
      }
    }
    expect(text.replace(/continúa en la página \d+ …/g, "")).not.toContain("…");
    items.forEach((item, i) => {
      const monto = p.totals.lines[i]?.descuentoMonto ?? 0;
      if (monto > 0) {
        expect(text).toContain(`${formatNumber(item.descuentoPorcentaje ?? 0)} %`);
        expect(text).toContain(formatNumber(monto));
      }
    });
    for (const page of glyphs(pdf)) expect(overprints(page)).toEqual([]);
    expect(outsideMargins(pdf, margin)).toEqual([]);
    expect(await decodePdf417(rasterize(pdf, pageTexts(pdf).length - 1, 300))).toEqual([p.ted ?? ""]);
  });
});

test("the line discount prints its amount beside the percentage (carta column, térmica detail)", async () => {
  const p = makePrintable(makeInput(33, 2));
  const monto = formatNumber(p.totals.lines[0]?.descuentoMonto ?? 0);
  expect(monto).toBe("998");
  expect(flat(pageTexts(await renderPdf(p)).join(" "))).toContain("8.982");
  expect(flat(pageTexts(await renderPdf(p)).join(" "))).toMatch(/10 % 998 /);
  expect(flat(pageTexts(await renderPdf(p, { formato: "termica" })).join(" "))).toContain("(dcto. 10 % = 998)");
});

test("a description taller than a page is split across pages, every line once, within the page", async () => {
  const lines = Array.from({ length: 200 }, (_, i) => `D${i}`); // 890 characters, 200 lines
  const base = makeInput(33, 3);
  const p = makePrintable({ ...base, items: [{ nombre: "Servicio", cantidad: 1, precio: 1000, descripcion: lines.join("\n") }, ...base.items] });
  const pdf = await renderPdf(p, { cedible: true });
  const pages = pageTexts(pdf).map(flat);
  expect(pages.length).toBeGreaterThan(3);
  const all = pages.join(" ");
  for (const line of lines) expect(all.split(` ${line} `).length - 1).toBe(1);
  for (const item of base.items) expect(all).toContain(item.nombre);
  expect(pages.at(-1)).toContain(formatMoney(p.totals.montoTotal));
  glyphs(pdf).forEach((page, i) => {
    expect(overprints(page)).toEqual([]);
    // nothing runs into the page number line (baseline at 774 pt) but the page number itself
    expect(page.filter((g) => g.y1 > 766).map((g) => g.c).join("")).toBe(`Página${i + 1}de${pages.length}`);
  });
});

test("the last page keeps table rows with the totals, also when the references end a page", async () => {
  // the reference row used to close the previous page, leaving the totals alone (22, 52 lines) or with it (27, 60)
  const base = makeInput(33, 60);
  const items = base.items.map((item, i) => ({ ...item, codigo: `P-${String(i + 1).padStart(3, "0")}` }));
  for (const count of [22, 27, 52, 60]) {
    const pdf = await renderPdf(makePrintable({ ...base, items: items.slice(0, count) }));
    const last = flat(pageTexts(pdf).at(-1) ?? "");
    expect(last).toContain("TOTAL");
    expect(last).toContain(`#${String(count).padStart(2, "0")}`);
    expect(last).toContain("OC-4521");
  }
});
