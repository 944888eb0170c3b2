/**
 * Letter pages (612 × 792 pt): header and red box on every page, receiver on the first, the items table flowing over
 * as many pages as needed (repeated column header, "continúa" marks, "Página n de m"), and on the last page the
 * references, totals and, at the bottom, the timbre (≥ 2 cm from the left edge) beside the acuse de recibo.
 */
import { MM } from "./barcode.js";
import { acuseBlock, timbreBlock } from "./blocks.js";
import { drawHeader, drawReceiver, PAGE_HEIGHT, PAGE_WIDTH, MARGIN, RIGHT } from "./carta-header.js";
import { drawSummary } from "./carta-summary.js";
import { drawContinues, tableSegments } from "./carta-table.js";
import { PREVIEW_MARK } from "./content.js";
import type { RenderContext } from "./context.js";
import { GRAY, RED, Sheet } from "./sheet.js";

/** Lowest y the content may reach; page numbers sit below. */
const BOTTOM = PAGE_HEIGHT - 30;
const CONTINUES_SPACE = 16;
/** Timbre: 6 cm wide at 2.2 cm from the left edge, at most 3.2 cm tall. */
const TIMBRE = { x: 22 * MM, width: 60 * MM, maxHeight: 32 * MM };
const ACUSE_WIDTH = 250;
const GAP = 10;

/**
 * Lays the document out on Letter pages and adds them to `ctx.doc`.
 *
 * @example
 * renderCarta(await createContext(printable, {})); // ctx.doc now has 1+ pages
 */
export function renderCarta(ctx: RenderContext): void {
  const sheets: Sheet[] = [];
  let sheet = new Sheet(ctx.fonts);
  let y = 0;
  const startPage = (first: boolean): void => {
    sheet = new Sheet(ctx.fonts);
    sheets.push(sheet);
    y = drawHeader(sheet, ctx);
    if (first) y = drawReceiver(sheet, ctx, y) + 2;
  };
  const breakPage = (): void => {
    drawContinues(sheet, y, sheets.length + 1);
    startPage(false);
  };

  startPage(true);
  const timbre = timbreBlock(ctx, TIMBRE.width, TIMBRE.maxHeight);
  const acuse = ctx.cedible ? acuseBlock(sheet, ACUSE_WIDTH, ctx.data.input.tipo) : null;
  const footerTop = BOTTOM - Math.max(timbre.height, acuse?.height ?? 0);
  const summaryHeight = drawSummary(new Sheet(ctx.fonts), ctx, 0);
  const summaryFits = (from: number): boolean => from + GAP + summaryHeight <= footerTop - 8;
  const fits = (height: number): boolean => y + height <= BOTTOM - CONTINUES_SPACE;

  const segments = tableSegments(sheet, ctx);
  segments.forEach((segment, s) => {
    const lastSegment = s === segments.length - 1;
    const headerHeight = segment.header(new Sheet(ctx.fonts), 0, false);
    if (!fits(GAP + headerHeight + (segment.rows[0]?.height ?? 0))) breakPage();
    y = segment.header(sheet, y + GAP, false);
    let onPage = 0;
    segment.rows.forEach((row, i) => {
      // keep the last two rows with the totals rather than leave the last page without rows
      const rest = (): number => segment.rows.slice(i).reduce((sum, r) => sum + r.height, 0);
      const widow = lastSegment && i === Math.max(segment.rows.length - 2, 0) && onPage > 0 && !summaryFits(y + rest());
      if (widow || !fits(row.height)) {
        breakPage();
        y = segment.header(sheet, y + GAP, true);
        onPage = 0;
      }
      row.draw(sheet, y);
      y += row.height;
      onPage++;
    });
  });
  if (!summaryFits(y)) breakPage();
  drawSummary(sheet, ctx, y + GAP);
  timbre.draw(sheet, TIMBRE.x, footerTop);
  acuse?.draw(sheet, RIGHT - ACUSE_WIDTH, footerTop);

  sheets.forEach((s, i) => {
    s.text(`Página ${i + 1} de ${sheets.length}`, RIGHT, PAGE_HEIGHT - 18, { size: 7.5, color: GRAY, align: "right" });
    if (ctx.preview) {
      s.watermark(PREVIEW_MARK, PAGE_WIDTH / 2, PAGE_HEIGHT / 2, 46, 45, RED);
      s.text(`${PREVIEW_MARK} — VISTA PREVIA`, MARGIN, PAGE_HEIGHT - 18, { size: 7.5, font: "bold", color: RED });
    }
    s.drawOn(ctx.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]), ctx.doc);
  });
}
