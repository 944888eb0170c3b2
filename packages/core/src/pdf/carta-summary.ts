/** Letter layout, last page: observaciones beside the totals box. */
import { MARGIN, RIGHT } from "./carta-header.js";
import { totalRows } from "./content.js";
import type { RenderContext } from "./context.js";
import { BLACK, SHADE, type Sheet } from "./sheet.js";

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

/**
 * At most this many lines of observaciones (the last one ending in `…`): 36 lines of 10 pt with the totals keep the
 * summary within one page under the header and above the timbre, and hold ~2 900 characters of prose — every
 * observaciones the API accepts (≤ 1 000 characters) unless it is mostly line breaks.
 */
const CARTA_OBSERVACIONES_LINES = 36;

function drawObservaciones(sheet: Sheet, ctx: RenderContext, top: number): number {
  const text = ctx.data.input.observaciones?.trim();
  if (!text) return top;
  const width = RIGHT - TOTALS_WIDTH - MARGIN - 16;
  sheet.text("Observaciones", MARGIN, top + 9, { size: 8.5, font: "bold" });
  return sheet.lines(sheet.wrap(text, 8, width, "regular", CARTA_OBSERVACIONES_LINES), MARGIN, top + 21, 10, { size: 8 });
}

/**
 * Observaciones beside the totals. Returns the bottom.
 *
 * @example
 * const bottom = drawSummary(sheet, ctx, y + 10);
 */
export function drawSummary(sheet: Sheet, ctx: RenderContext, top: number): number {
  return Math.max(drawObservaciones(sheet, ctx, top), drawTotals(sheet, ctx, top));
}
