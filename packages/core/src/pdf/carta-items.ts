/**
 * Letter layout, the items table: one measured row per line, printed whole (a description taller than a page is
 * split across pages), with every value fitted to its column.
 */
import { MARGIN, RIGHT } from "./carta-header.js";
import { itemRows, type ItemRow } from "./content.js";
import type { RenderContext } from "./context.js";
import { fitText, MIN_LEGIBLE_SIZE, type FittedText } from "./fit-text.js";
import { CELL_SIZE, HEADER_LABELS, HEADER_SIZE, itemColumns, type ColumnName, type ItemColumns } from "./item-columns.js";
import { GRAY, LIGHT, SHADE, type Sheet } from "./sheet.js";
import type { Row, Segment } from "./carta-table.js";

const HEADER_HEIGHT = 16;
const NAME = { size: CELL_SIZE, leading: 10.5 };
const DESC = { size: 7, leading: 8.5 };
/** Space above the first baseline's text and below the last line. */
const PAD = { top: 4, bottom: 2 };

/** A value in its column: one or more texts stacked (the discount: percentage over amount). */
interface Cell {
  column: ColumnName;
  align: "left" | "right";
  texts: FittedText[];
}

const leadingOf = (size: number): number => (NAME.leading * size) / NAME.size;
const cellHeight = (cell: Cell): number => cell.texts.reduce((h, t) => h + t.lines.length * leadingOf(t.size), 0);

function cellsOf(sheet: Sheet, cols: ItemColumns, row: ItemRow): Cell[] {
  const cell = (column: ColumnName, align: Cell["align"], values: string[]): Cell => ({
    column,
    align,
    texts: values.filter((v) => v.trim() !== "").map((v) =>
      fitText(sheet, v, { size: CELL_SIZE, minSize: MIN_LEGIBLE_SIZE, width: cols[column].width, maxLines: 1 })),
  });
  return [
    cell("cant", "right", [row.cantidad]),
    cell("unidad", "left", [row.unidad]),
    cell("precio", "right", [row.precio]),
    cell("dcto", "right", [row.descuentoPorcentaje, row.descuentoMonto]),
    cell("total", "right", [row.total]),
  ];
}

function drawCell(sheet: Sheet, cols: ItemColumns, cell: Cell, baseline: number): void {
  const { x, width } = cols[cell.column];
  let y = baseline;
  for (const { size, lines } of cell.texts) {
    y = sheet.lines(lines, cell.align === "right" ? x + width : x, y, leadingOf(size), { size, align: cell.align });
  }
}

/** A row, or a part of one: the name and cells only on its first part, description lines on any. */
function itemPart(cols: ItemColumns, name: string[], desc: string[], cells: Cell[]): Row {
  const text = name.length * NAME.leading + desc.length * DESC.leading;
  const height = PAD.top + PAD.bottom + Math.max(text, ...cells.map(cellHeight));
  const headOf = (lines: number): Row => itemPart(cols, name, desc.slice(0, lines), cells);
  const fewest = name.length > 0 ? 0 : 1;
  return {
    height,
    minHeight: desc.length > fewest ? headOf(fewest).height : height,
    draw(sheet, top) {
      const first = top + PAD.top + 7.5;
      cells.forEach((cell) => drawCell(sheet, cols, cell, first));
      const after = sheet.lines(name, cols.desc.x, first, NAME.leading, { size: NAME.size });
      const descTop = name.length > 0 ? after - NAME.leading + DESC.leading : top + PAD.top + 6.5;
      sheet.lines(desc, cols.desc.x, descTop, DESC.leading, { size: DESC.size, color: GRAY });
      sheet.line(MARGIN, top + height, RIGHT, top + height, { color: LIGHT });
    },
    split(room) {
      for (let lines = desc.length - 1; lines >= fewest; lines--) {
        const head = headOf(lines);
        if (head.height <= room) return [head, itemPart(cols, [], desc.slice(lines), [])];
      }
      return null;
    },
  };
}

function itemRow(sheet: Sheet, cols: ItemColumns, row: ItemRow): Row {
  const name = sheet.wrap(row.nombre, NAME.size, cols.desc.width);
  const desc = row.descripcion ? sheet.wrap(row.descripcion, DESC.size, cols.desc.width) : [];
  return itemPart(cols, name, desc, cellsOf(sheet, cols, row));
}

function drawItemsHeader(sheet: Sheet, cols: ItemColumns, top: number, continued: boolean): number {
  sheet.rect(MARGIN, top, RIGHT - MARGIN, HEADER_HEIGHT, { fill: SHADE });
  const y = top + 11;
  const s = { size: HEADER_SIZE, font: "bold" as const };
  const right = (name: ColumnName): void => sheet.text(HEADER_LABELS[name], cols[name].x + cols[name].width, y, { ...s, align: "right" });
  right("cant");
  sheet.text(HEADER_LABELS.unidad, cols.unidad.x, y, s);
  sheet.text(continued ? `${HEADER_LABELS.desc} (continuación)` : HEADER_LABELS.desc, cols.desc.x, y, s);
  (["precio", "dcto", "total"] as const).forEach(right);
  return top + HEADER_HEIGHT;
}

/**
 * The items table as a flowing segment (header repeated with "(continuación)" on every page it reaches).
 *
 * @example
 * const { header, rows } = itemsSegment(sheet, ctx); let y = header(sheet, 150, false);
 */
export function itemsSegment(sheet: Sheet, ctx: RenderContext): Segment {
  const rows = itemRows(ctx.data.input, ctx.data.totals);
  const cols = itemColumns(sheet, rows);
  return {
    header: (s, top, continued) => drawItemsHeader(s, cols, top, continued),
    rows: rows.map((row) => itemRow(sheet, cols, row)),
  };
}
