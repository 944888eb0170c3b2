/** Letter layout, top of the page: issuer block, the red SII box, and (first page) the receiver block. */
import { MM } from "./barcode.js";
import { boxLines, issuerLines, receiverFields, siiUnit, transportFields, type Field } from "./content.js";
import type { RenderContext } from "./context.js";
import { fitText, MIN_LEGIBLE_SIZE } from "./fit-text.js";
import { BLACK, GRAY, LIGHT, RED, type Sheet } from "./sheet.js";

export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
export const MARGIN = 40;
export const RIGHT = PAGE_WIDTH - MARGIN;

/** The SII box: 7 × 3 cm (limits 5.5–8 × 1.5–4 cm), 0.7 mm line. */
const BOX = { width: 70 * MM, height: 30 * MM, line: 0.7 * MM };
const BOX_X = RIGHT - BOX.width;
const BOX_TEXT = 12;

function drawBox(sheet: Sheet, ctx: RenderContext, top: number): number {
  const { rut, name, folio } = boxLines(ctx.data.input, ctx.preview);
  const nameLines = sheet.wrap(name, BOX_TEXT, BOX.width - 16, "bold", 2);
  const lines = [rut, ...nameLines, folio];
  const leading = BOX_TEXT * 1.35;
  const half = BOX.line / 2;
  sheet.rect(BOX_X + half, top + half, BOX.width - BOX.line, BOX.height - BOX.line, { stroke: RED, lineWidth: BOX.line });
  const first = top + (BOX.height - lines.length * leading) / 2 + BOX_TEXT * 0.95;
  const cx = BOX_X + BOX.width / 2;
  sheet.lines(lines, cx, first, leading, { size: BOX_TEXT, font: "bold", color: RED, align: "center" });
  const unit = fitText(sheet, siiUnit(ctx.data.input), { size: 9, minSize: MIN_LEGIBLE_SIZE, width: BOX.width, maxLines: 1, font: "bold" });
  const after = sheet.lines(unit.lines, cx, top + BOX.height + 12, unit.size * 1.25, { size: unit.size, font: "bold", color: RED, align: "center" });
  return after - unit.size * 1.25 + 4;
}

function drawIssuer(sheet: Sheet, ctx: RenderContext, top: number): number {
  let x = MARGIN;
  let bottom = top;
  if (ctx.logo) {
    const scale = Math.min(90 / ctx.logo.width, 60 / ctx.logo.height);
    const w = ctx.logo.width * scale;
    const h = ctx.logo.height * scale;
    sheet.image(ctx.logo, x, top, w, h);
    x += w + 10;
    bottom = top + h;
  }
  const width = BOX_X - 14 - x;
  // a long razón social shrinks to keep two lines, then wraps: mandatory text is never cut
  const name = fitText(sheet, ctx.data.input.issuer.razonSocial, { size: 13, minSize: 10, width, maxLines: 2, font: "bold" });
  let y = sheet.lines(name.lines, x, top + name.size - 1, name.size + 2, { size: name.size, font: "bold" });
  const details = issuerLines(ctx.data.input).flatMap((l) => sheet.wrap(l, 8, width));
  y = sheet.lines(details, x, y + 1, 10.5, { size: 8, color: GRAY });
  return Math.max(bottom, y - 6);
}

/**
 * Issuer + box on every page; returns the y where the page body starts.
 *
 * @example
 * let y = drawHeader(sheet, ctx); // ≈ 140
 */
export function drawHeader(sheet: Sheet, ctx: RenderContext): number {
  const top = MARGIN - 4;
  return Math.max(drawIssuer(sheet, ctx, top), drawBox(sheet, ctx, top)) + 10;
}

function fieldColumn(sheet: Sheet, fields: Field[], x: number, labelWidth: number, width: number, top: number): number {
  let y = top;
  for (const [label, value] of fields) {
    const lines = sheet.wrap(value, 8.5, width - labelWidth);
    sheet.text(`${label}:`, x, y, { size: 8, font: "bold" });
    y = sheet.lines(lines, x + labelWidth, y, 11, { size: 8.5 });
  }
  return y;
}

/** Two columns of fields in a frame, split 60/40 like the receiver block; returns its bottom. */
function drawFieldBlock(sheet: Sheet, left: Field[], right: Field[], top: number): number {
  const split = MARGIN + (RIGHT - MARGIN) * 0.6;
  const first = top + 14;
  const bottom = Math.max(
    fieldColumn(sheet, left, MARGIN + 8, 56, split - MARGIN - 20, first),
    fieldColumn(sheet, right, split + 8, 78, RIGHT - split - 14, first),
  ) - 4;
  sheet.rect(MARGIN, top, RIGHT - MARGIN, bottom - top, { stroke: BLACK, lineWidth: 0.6 });
  sheet.line(split, top + 6, split, bottom - 6, { color: LIGHT });
  return bottom;
}

/**
 * The receiver framed block (first page); returns its bottom.
 *
 * @example
 * y = drawReceiver(sheet, ctx, y);
 */
export function drawReceiver(sheet: Sheet, ctx: RenderContext, top: number): number {
  const { left, right } = receiverFields(ctx.data.input);
  return drawFieldBlock(sheet, left, right, top);
}

/**
 * The transport of a guía de despacho (first page, under the receiver): destination and driver beside vehicle and
 * carrier, framed like the receiver. Returns `top` unchanged when there is nothing to print.
 *
 * @example
 * y = drawTransport(sheet, ctx, y + 4);
 */
export function drawTransport(sheet: Sheet, ctx: RenderContext, top: number): number {
  const { left, right } = transportFields(ctx.data.input);
  if (left.length === 0 && right.length === 0) return top;
  return drawFieldBlock(sheet, left, right, top);
}
