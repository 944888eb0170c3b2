/**
 * Letter pages (612 × 792 pt): header and red box on every page, receiver (and a guía's transport) on the first, the
 * items table flowing over as many pages as needed (repeated column header, "continúa" marks, "Página n de m"), and
 * on the last page the references, totals and, at the bottom, the timbre (≥ 2 cm from the left edge) beside the
 * acuse de recibo.
 */
import { MM } from "./barcode.js";
import { acuseBlock, timbreBlock } from "./blocks.js";
import { drawHeader, drawReceiver, drawTransport, PAGE_HEIGHT, PAGE_WIDTH, MARGIN, RIGHT } from "./carta-header.js";
import { drawSummary } from "./carta-summary.js";
import { drawContinues, tableSegments, type Row, type Segment } from "./carta-table.js";
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
  /** Table rows drawn on the current page. */
  let onPage = 0;
  const startPage = (first: boolean): void => {
    sheet = new Sheet(ctx.fonts);
    sheets.push(sheet);
    y = drawHeader(sheet, ctx);
    if (first) {
      y = drawReceiver(sheet, ctx, y) + 2;
      const below = drawTransport(sheet, ctx, y + 2);
      if (below > y + 2) y = below + 2;
    }
    onPage = 0;
  };
  const breakPage = (): void => {
    drawContinues(sheet, y, sheets.length + 1);
    startPage(false);
  };
  const scratch = (): Sheet => new Sheet(ctx.fonts);

  startPage(true);
  const timbre = timbreBlock(ctx, TIMBRE.width, TIMBRE.maxHeight);
  const acuse = ctx.cedible ? acuseBlock(sheet, ACUSE_WIDTH, ctx.data.input.tipo) : null;
  const footerTop = BOTTOM - Math.max(timbre.height, acuse?.height ?? 0);
  const summaryHeight = drawSummary(scratch(), ctx, 0);
  const summaryFits = (from: number): boolean => from + GAP + summaryHeight <= footerTop - 8;
  const fits = (height: number): boolean => y + height <= BOTTOM - CONTINUES_SPACE;

  const segments = tableSegments(sheet, ctx);
  const pageTop = drawHeader(scratch(), ctx);
  /** Where rows start on a page that continues `segment` (its header repeated under the page header). */
  const continuedTop = (segment: Segment): number => segment.header(scratch(), pageTop + GAP, true);
  /** Height of the tables from row `i` of segment `s` to the end (with that segment's header when `i` is 0). */
  const tail = (s: number, i: number): number => segments.slice(s).reduce((sum, segment, k) =>
    sum + (k > 0 || i === 0 ? GAP + segment.header(scratch(), 0, false) : 0) +
      segment.rows.slice(k === 0 ? i : 0).reduce((h, r) => h + r.height, 0), 0);
  const rowCount = segments.reduce((n, segment) => n + segment.rows.length, 0);
  let drawn = 0;
  /** Keep the last two rows with the totals (when a new page starting at `nextTop` can hold them all). */
  const keepWithTotals = (s: number, i: number, nextTop: number): boolean => drawn === Math.max(rowCount - 2, 0) &&
    onPage > 0 && !summaryFits(y + tail(s, i)) && summaryFits(nextTop + tail(s, i));

  segments.forEach((segment, s) => {
    const top = continuedTop(segment);
    /** Rows taller than a whole page are split across pages; others are moved whole to the next page. */
    const tooTall = (row: Row): boolean => top + row.height > BOTTOM - CONTINUES_SPACE;
    const needed = (row: Row): number => (tooTall(row) ? row.minHeight : row.height);
    const continuePage = (): void => {
      breakPage();
      y = segment.header(sheet, y + GAP, true);
    };
    const first = segment.rows[0];
    const headerHeight = segment.header(scratch(), 0, false);
    if ((first && !fits(GAP + headerHeight + needed(first))) || keepWithTotals(s, 0, pageTop)) breakPage();
    y = segment.header(sheet, y + GAP, false);
    segment.rows.forEach((row, i) => {
      if (i > 0 && keepWithTotals(s, i, top)) continuePage();
      let rest = row;
      while (!fits(rest.height)) {
        const parts = tooTall(rest) ? (rest.split?.(BOTTOM - CONTINUES_SPACE - y) ?? null) : null;
        if (parts) {
          parts[0].draw(sheet, y);
          y += parts[0].height;
          rest = parts[1];
        } else if (onPage === 0) break; // fits no page and cannot be split: drawn as it is rather than loop
        continuePage();
      }
      rest.draw(sheet, y);
      y += rest.height;
      onPage++;
      drawn++;
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
