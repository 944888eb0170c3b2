/** Letter layout, tables: items (measured rows, repeated header), references, observaciones and totals. */
import { MARGIN, RIGHT } from "./carta-header.js";
import { referenceRows, totalRows, type ItemRow } from "./content.js";
import type { RenderContext } from "./context.js";
import { BLACK, GRAY, LIGHT, SHADE, type Sheet } from "./sheet.js";

const COL = { cant: MARGIN + 40, unidad: MARGIN + 48, desc: MARGIN + 86, descWidth: 250, precio: 446, dcto: 494, total: RIGHT - 6 };
const HEADER_HEIGHT = 16;
const NAME = { size: 8.5, leading: 10.5 };
const DESC = { size: 7, leading: 8.5 };

export interface MeasuredRow {
  row: ItemRow;
  name: string[];
  desc: string[];
  height: number;
}

export function measureRow(sheet: Sheet, row: ItemRow): MeasuredRow {
  const name = sheet.wrap(row.nombre, NAME.size, COL.descWidth);
  const desc = row.descripcion ? sheet.wrap(row.descripcion, DESC.size, COL.descWidth, "regular", 8) : [];
  return { row, name, desc, height: 6 + name.length * NAME.leading + desc.length * DESC.leading };
}

/** The shaded column header; `continued` adds "(continuación)". Returns the y under it. */
export function drawItemsHeader(sheet: Sheet, top: number, continued: boolean): number {
  sheet.rect(MARGIN, top, RIGHT - MARGIN, HEADER_HEIGHT, { fill: SHADE });
  const y = top + 11;
  const s = { size: 7.5, font: "bold" as const };
  sheet.text("Cant.", COL.cant, y, { ...s, align: "right" });
  sheet.text("Unidad", COL.unidad, y, s);
  sheet.text(continued ? "Descripción (continuación)" : "Descripción", COL.desc, y, s);
  sheet.text("P. Unitario", COL.precio, y, { ...s, align: "right" });
  sheet.text("Dcto.", COL.dcto, y, { ...s, align: "right" });
  sheet.text("Total", COL.total, y, { ...s, align: "right" });
  return top + HEADER_HEIGHT;
}

export function drawItemRow(sheet: Sheet, m: MeasuredRow, top: number): void {
  const y = top + 4 + 7.5;
  const s = { size: NAME.size };
  sheet.text(m.row.cantidad, COL.cant, y, { ...s, align: "right" });
  sheet.text(m.row.unidad, COL.unidad, y, s);
  const after = sheet.lines(m.name, COL.desc, y, NAME.leading, s);
  sheet.lines(m.desc, COL.desc, after - NAME.leading + DESC.leading, DESC.leading, { size: DESC.size, color: GRAY });
  sheet.text(m.row.precio, COL.precio, y, { ...s, align: "right" });
  sheet.text(m.row.descuento, COL.dcto, y, { ...s, align: "right" });
  sheet.text(m.row.total, COL.total, y, { ...s, align: "right" });
  sheet.line(MARGIN, top + m.height, RIGHT, top + m.height, { color: LIGHT });
}

export function drawContinues(sheet: Sheet, top: number, nextPage: number): void {
  sheet.text(`continúa en la página ${nextPage} …`, RIGHT, top + 10, { size: 7.5, font: "italic", color: GRAY, align: "right" });
}

function drawReferences(sheet: Sheet, ctx: RenderContext, top: number): number {
  const rows = referenceRows(ctx.data.input);
  if (rows.length === 0) return top;
  const x = { tipo: MARGIN + 6, folio: MARGIN + 200, fecha: MARGIN + 270, razon: MARGIN + 330 };
  sheet.text("Referencias", MARGIN, top + 9, { size: 8.5, font: "bold" });
  let y = top + 13;
  sheet.rect(MARGIN, y, RIGHT - MARGIN, 13, { fill: SHADE });
  const h = { size: 7.5, font: "bold" as const };
  sheet.text("Tipo de documento", x.tipo, y + 9.5, h);
  sheet.text("Folio", x.folio, y + 9.5, h);
  sheet.text("Fecha", x.fecha, y + 9.5, h);
  sheet.text("Razón", x.razon, y + 9.5, h);
  y += 13;
  for (const ref of rows) {
    const tipo = sheet.wrap(ref.tipo, 8, x.folio - x.tipo - 6);
    const razon = sheet.wrap(ref.razon, 8, RIGHT - 6 - x.razon);
    const lines = Math.max(tipo.length, razon.length, 1);
    sheet.lines(tipo, x.tipo, y + 9.5, 10, { size: 8 });
    sheet.text(ref.folio, x.folio, y + 9.5, { size: 8 });
    sheet.text(ref.fecha, x.fecha, y + 9.5, { size: 8 });
    sheet.lines(razon, x.razon, y + 9.5, 10, { size: 8 });
    y += 4 + lines * 10;
    sheet.line(MARGIN, y, RIGHT, y, { color: LIGHT });
  }
  return y + 8;
}

const TOTALS_WIDTH = 200;

function drawTotals(sheet: Sheet, ctx: RenderContext, top: number): number {
  const x = RIGHT - TOTALS_WIDTH;
  let y = top;
  for (const [label, value, grand] of totalRows(ctx.data.input, ctx.data.totals)) {
    const h = grand ? 18 : 14;
    if (grand) sheet.rect(x, y, TOTALS_WIDTH, h, { fill: SHADE });
    const s = { size: grand ? 10 : 8.5, font: grand ? ("bold" as const) : ("regular" as const) };
    sheet.text(label, x + 8, y + h - 4.5, s);
    sheet.text(value, RIGHT - 8, y + h - 4.5, { ...s, align: "right" });
    y += h;
  }
  sheet.rect(x, top, TOTALS_WIDTH, y - top, { stroke: BLACK, lineWidth: 0.6 });
  return y;
}

function drawObservaciones(sheet: Sheet, ctx: RenderContext, top: number): number {
  const text = ctx.data.input.observaciones?.trim();
  if (!text) return top;
  const width = RIGHT - TOTALS_WIDTH - MARGIN - 16;
  sheet.text("Observaciones", MARGIN, top + 9, { size: 8.5, font: "bold" });
  return sheet.lines(sheet.wrap(text, 8, width, "regular", 12), MARGIN, top + 21, 10, { size: 8 });
}

/** References, then observaciones beside the totals. Returns the bottom. */
export function drawTail(sheet: Sheet, ctx: RenderContext, top: number): number {
  const y = drawReferences(sheet, ctx, top);
  return Math.max(drawObservaciones(sheet, ctx, y), drawTotals(sheet, ctx, y));
}
