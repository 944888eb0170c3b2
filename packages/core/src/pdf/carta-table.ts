/** Letter layout, flowing tables: items and references as measured rows under a header repeated on every page. */
import { MARGIN, RIGHT } from "./carta-header.js";
import { itemRows, referenceRows, type ItemRow, type ReferenceRow } from "./content.js";
import type { RenderContext } from "./context.js";
import { GRAY, LIGHT, SHADE, type Sheet } from "./sheet.js";

const COL = { cant: MARGIN + 40, unidad: MARGIN + 48, desc: MARGIN + 86, descWidth: 250, precio: 446, dcto: 494, total: RIGHT - 6 };
const HEADER_HEIGHT = 16;
const NAME = { size: 8.5, leading: 10.5 };
const DESC = { size: 7, leading: 8.5 };

/** A measured row that can be drawn at any y. */
export interface Row {
  height: number;
  draw(sheet: Sheet, top: number): void;
}

/** Rows under a header that is drawn again (with `continued`) on every page the rows reach. */
export interface Segment {
  header(sheet: Sheet, top: number, continued: boolean): number;
  rows: Row[];
}

function itemRow(sheet: Sheet, row: ItemRow): Row {
  const name = sheet.wrap(row.nombre, NAME.size, COL.descWidth);
  const desc = row.descripcion ? sheet.wrap(row.descripcion, DESC.size, COL.descWidth, "regular", 8) : [];
  const height = 6 + name.length * NAME.leading + desc.length * DESC.leading;
  return { height, draw: (s, top) => drawItemRow(s, row, name, desc, height, top) };
}

/** The shaded column header; `continued` adds "(continuación)". Returns the y under it. */
function drawItemsHeader(sheet: Sheet, top: number, continued: boolean): number {
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

function drawItemRow(sheet: Sheet, row: ItemRow, name: string[], desc: string[], height: number, top: number): void {
  const y = top + 4 + 7.5;
  const s = { size: NAME.size };
  sheet.text(row.cantidad, COL.cant, y, { ...s, align: "right" });
  sheet.text(row.unidad, COL.unidad, y, s);
  const after = sheet.lines(name, COL.desc, y, NAME.leading, s);
  sheet.lines(desc, COL.desc, after - NAME.leading + DESC.leading, DESC.leading, { size: DESC.size, color: GRAY });
  sheet.text(row.precio, COL.precio, y, { ...s, align: "right" });
  sheet.text(row.descuento, COL.dcto, y, { ...s, align: "right" });
  sheet.text(row.total, COL.total, y, { ...s, align: "right" });
  sheet.line(MARGIN, top + height, RIGHT, top + height, { color: LIGHT });
}

/**
 * @example
 * drawContinues(sheet, y, 2); // "continúa en la página 2 …"
 */
export function drawContinues(sheet: Sheet, top: number, nextPage: number): void {
  sheet.text(`continúa en la página ${nextPage} …`, RIGHT, top + 10, { size: 7.5, font: "italic", color: GRAY, align: "right" });
}

const REF = { tipo: MARGIN + 6, folio: MARGIN + 200, fecha: MARGIN + 270, razon: MARGIN + 330 };

function drawReferencesHeader(sheet: Sheet, top: number, continued: boolean): number {
  sheet.text(continued ? "Referencias (continuación)" : "Referencias", MARGIN, top + 13, { size: 8.5, font: "bold" });
  const y = top + 17;
  sheet.rect(MARGIN, y, RIGHT - MARGIN, 13, { fill: SHADE });
  const h = { size: 7.5, font: "bold" as const };
  sheet.text("Tipo de documento", REF.tipo, y + 9.5, h);
  sheet.text("Folio", REF.folio, y + 9.5, h);
  sheet.text("Fecha", REF.fecha, y + 9.5, h);
  sheet.text("Razón", REF.razon, y + 9.5, h);
  return y + 13;
}

function referenceRow(sheet: Sheet, ref: ReferenceRow): Row {
  const tipo = sheet.wrap(ref.tipo, 8, REF.folio - REF.tipo - 6);
  const razon = sheet.wrap(ref.razon, 8, RIGHT - 6 - REF.razon);
  const height = 4 + Math.max(tipo.length, razon.length, 1) * 10;
  return {
    height,
    draw(s, top) {
      s.lines(tipo, REF.tipo, top + 9.5, 10, { size: 8 });
      s.text(ref.folio, REF.folio, top + 9.5, { size: 8 });
      s.text(ref.fecha, REF.fecha, top + 9.5, { size: 8 });
      s.lines(razon, REF.razon, top + 9.5, 10, { size: 8 });
      s.line(MARGIN, top + height, RIGHT, top + height, { color: LIGHT });
    },
  };
}

/**
 * The items table, then the references table (when there are references).
 *
 * @example
 * for (const segment of tableSegments(sheet, ctx)) y = segment.header(sheet, y, false);
 */
export function tableSegments(sheet: Sheet, ctx: RenderContext): Segment[] {
  const items = itemRows(ctx.data.input, ctx.data.totals).map((r) => itemRow(sheet, r));
  const refs = referenceRows(ctx.data.input).map((r) => referenceRow(sheet, r));
  return [
    { header: drawItemsHeader, rows: items },
    { header: drawReferencesHeader, rows: refs },
  ].filter((segment) => segment.rows.length > 0);
}
