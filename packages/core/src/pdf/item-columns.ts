/**
 * Letter layout: the items table's columns, sized from what they hold. Every column but the description keeps its
 * usual width unless a value needs more; the description gives way down to a floor. Cells that are still too wide
 * shrink (see `fitText`), so no value ever overprints its neighbour.
 */
import { MARGIN, RIGHT } from "./carta-header.js";
import type { ItemRow } from "./content.js";
import type { Sheet } from "./sheet.js";

/** A column's left edge and width. */
export interface Column {
  x: number;
  width: number;
}

export type ColumnName = "cant" | "unidad" | "desc" | "precio" | "dcto" | "total";
export type ItemColumns = Record<ColumnName, Column>;

export const CELL_SIZE = 8.5;
export const HEADER_SIZE = 7.5;
export const HEADER_LABELS: Record<ColumnName, string> = {
  cant: "Cant.", unidad: "Unidad", desc: "Descripción", precio: "P. Unitario", dcto: "Dcto.", total: "Total",
};
const ORDER: ColumnName[] = ["cant", "unidad", "desc", "precio", "dcto", "total"];
/** The usual widths (the description takes what is left: 254 pt). */
const USUAL: Record<Exclude<ColumnName, "desc">, number> = { cant: 34, unidad: 30, precio: 64, dcto: 42, total: 66 };
const GAP = 6;
const DESC_MIN = 160;
const LEFT = MARGIN + 6;
const WIDTH = RIGHT - 6 - LEFT;

const cellTexts = (row: ItemRow, name: Exclude<ColumnName, "desc">): string[] =>
  name === "dcto" ? [row.descuentoPorcentaje, row.descuentoMonto] : [row[name === "cant" ? "cantidad" : name]];

/**
 * Column positions for these rows: values wider than the usual column widen it at the description's expense (kept
 * at least 160 pt wide; past that, every widening is scaled down alike and the cells shrink their font instead).
 *
 * @example
 * itemColumns(sheet, rows).precio // { x: 382, width: 64 } for ordinary prices
 */
export function itemColumns(sheet: Sheet, rows: ItemRow[]): ItemColumns {
  const fixed = Object.keys(USUAL) as Array<keyof typeof USUAL>;
  const wanted = Object.fromEntries(fixed.map((name) => {
    const widest = Math.max(sheet.measure(HEADER_LABELS[name], HEADER_SIZE, "bold"),
      ...rows.flatMap((row) => cellTexts(row, name).map((t) => sheet.measure(t, CELL_SIZE))));
    return [name, Math.max(USUAL[name], Math.ceil(widest))];
  })) as Record<keyof typeof USUAL, number>;
  const gaps = GAP * (ORDER.length - 1);
  const usual = fixed.reduce((sum, name) => sum + USUAL[name], 0);
  const extra = fixed.reduce((sum, name) => sum + wanted[name] - USUAL[name], 0);
  const room = WIDTH - gaps - usual - DESC_MIN;
  const scale = extra > room ? room / extra : 1;
  const widths = Object.fromEntries(fixed.map((name) => [name, USUAL[name] + (wanted[name] - USUAL[name]) * scale]));
  widths.desc = WIDTH - gaps - fixed.reduce((sum, name) => sum + (widths[name] ?? 0), 0);
  let x = LEFT;
  const columns = {} as ItemColumns;
  for (const name of ORDER) {
    const width = widths[name] ?? 0;
    columns[name] = { x, width };
    x += width + GAP;
  }
  return columns;
}
