/** Letter layout, flowing tables: items and references as measured rows under a header repeated on every page. */
import { RIGHT } from "./carta-header.js";
import { itemsSegment } from "./carta-items.js";
import { referencesSegment } from "./carta-references.js";
import type { RenderContext } from "./context.js";
import { GRAY, type Sheet } from "./sheet.js";

/** A measured row that can be drawn at any y. */
export interface Row {
  height: number;
  /** Height of the smallest first part `split` can cut off (the whole height when the row cannot be split). */
  minHeight: number;
  draw(sheet: Sheet, top: number): void;
  /** A first part no taller than `room` and the rest, or null when no first part fits (or the row cannot split). */
  split?(room: number): [Row, Row] | null;
}

/** Rows under a header that is drawn again (with `continued`) on every page the rows reach. */
export interface Segment {
  header(sheet: Sheet, top: number, continued: boolean): number;
  rows: Row[];
}

/**
 * @example
 * drawContinues(sheet, y, 2); // "continúa en la página 2 …"
 */
export function drawContinues(sheet: Sheet, top: number, nextPage: number): void {
  sheet.text(`continúa en la página ${nextPage} …`, RIGHT, top + 10, { size: 7.5, font: "italic", color: GRAY, align: "right" });
}

/**
 * The items table, then the references table (when there are references).
 *
 * @example
 * for (const segment of tableSegments(sheet, ctx)) y = segment.header(sheet, y, false);
 */
export function tableSegments(sheet: Sheet, ctx: RenderContext): Segment[] {
  return [itemsSegment(sheet, ctx), referencesSegment(sheet, ctx)].filter((segment) => segment.rows.length > 0);
}
