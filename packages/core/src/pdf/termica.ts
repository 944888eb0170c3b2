/**
 * Thermal roll (80 mm wide): the same content stacked in one column on a single page whose height follows the
 * content. The SII box is printed black (thermal printers are monochrome); the timbre is 6.2 cm wide (≥ 4.5 cm).
 */
import { ANONYMOUS_CONSUMER_RUT } from "../rut/index.js";
import { MM } from "./barcode.js";
import { acuseBlock, timbreBlock } from "./blocks.js";
import {
  boxLines, issuerLines, itemRows, PREVIEW_MARK, receiverFields, referenceRows, siiUnit, totalRows, transportFields,
  type Field, type ItemRow,
} from "./content.js";
import type { RenderContext } from "./context.js";
import { fitText, MIN_LEGIBLE_SIZE } from "./fit-text.js";
import { BLACK, GRAY, RED, Sheet } from "./sheet.js";

export const ROLL_WIDTH = 80 * MM;
/** Side margin of the roll, in points. */
export const ROLL_MARGIN = 10;
const M = ROLL_MARGIN;
const CW = ROLL_WIDTH - 2 * M;
const CX = ROLL_WIDTH / 2;

function separator(sheet: Sheet, y: number): number {
  sheet.line(M, y + 4, ROLL_WIDTH - M, y + 4, { width: 0.6, color: GRAY, dash: [2, 2] });
  return y + 10;
}

function header(sheet: Sheet, ctx: RenderContext, top: number): number {
  let y = top;
  if (ctx.logo) {
    const scale = Math.min(120 / ctx.logo.width, 50 / ctx.logo.height);
    sheet.image(ctx.logo, CX - (ctx.logo.width * scale) / 2, y, ctx.logo.width * scale, ctx.logo.height * scale);
    y += ctx.logo.height * scale + 6;
  }
  y = sheet.lines(sheet.wrap(ctx.data.input.issuer.razonSocial, 10, CW, "bold"), CX, y + 9, 12, { size: 10, font: "bold", align: "center" });
  const details = issuerLines(ctx.data.input).flatMap((l) => sheet.wrap(l, 7.5, CW));
  y = sheet.lines(details, CX, y, 9, { size: 7.5, align: "center" }) + 2;
  const { rut, name, folio } = boxLines(ctx.data.input, ctx.preview);
  const lines = [rut, ...sheet.wrap(name, 9.5, CW - 16, "bold", 2), folio];
  const height = Math.max(15 * MM, lines.length * 12 + 10);
  sheet.rect(M + 0.75, y, CW - 1.5, height, { stroke: BLACK, lineWidth: 1.5 });
  sheet.lines(lines, CX, y + (height - lines.length * 12) / 2 + 9, 12, { size: 9.5, font: "bold", align: "center" });
  y += height + 11;
  const unit = fitText(sheet, siiUnit(ctx.data.input), { size: 8, minSize: MIN_LEGIBLE_SIZE, width: CW, maxLines: 1, font: "bold" });
  y = sheet.lines(unit.lines, CX, y, unit.size * 1.25, { size: unit.size, font: "bold", align: "center" }) - unit.size * 1.25;
  return separator(sheet, y + 2);
}

function fieldLines(sheet: Sheet, fields: Field[], top: number): number {
  let y = top + 8;
  for (const [label, value] of fields) {
    const lw = sheet.measure(`${label}: `, 7.5, "bold");
    const lines = sheet.wrap(value, 7.5, CW - lw);
    sheet.text(`${label}:`, M, y, { size: 7.5, font: "bold" });
    y = sheet.lines(lines, M + lw, y, 9, { size: 7.5 });
  }
  return separator(sheet, y - 6);
}

/** Document and receiver fields, then a guía's transport under its own separator. */
function fields(sheet: Sheet, ctx: RenderContext, top: number): number {
  const { left, right } = receiverFields(ctx.data.input);
  const anonymous = ctx.data.input.receiver.rut.replace(/\./g, "").toUpperCase() === ANONYMOUS_CONSUMER_RUT;
  const y = fieldLines(sheet, [...right, ...(anonymous ? [] : left)], top);
  const transport = transportFields(ctx.data.input);
  const moved = [...transport.right, ...transport.left];
  return moved.length > 0 ? fieldLines(sheet, moved, y) : y;
}

/** `2 UN x 12.990  (dcto. 10 % = 2.598)`: quantity, price and the discount with its amount in pesos. */
function itemDetail(row: ItemRow): string {
  const discount = [row.descuentoPorcentaje, row.descuentoMonto].filter((v) => v !== "").join(" = ");
  return `${row.cantidad}${row.unidad ? ` ${row.unidad}` : ""} x ${row.precio}${discount ? `  (dcto. ${discount})` : ""}`;
}

function items(sheet: Sheet, ctx: RenderContext, top: number): number {
  let y = top + 8;
  sheet.text("Descripción", M, y, { size: 7.5, font: "bold" });
  sheet.text("Total", ROLL_WIDTH - M, y, { size: 7.5, font: "bold", align: "right" });
  y += 11;
  for (const row of itemRows(ctx.data.input, ctx.data.totals)) {
    y = sheet.lines(sheet.wrap(row.nombre, 8, CW), M, y, 9.5, { size: 8 });
    if (row.descripcion) y = sheet.lines(sheet.wrap(row.descripcion, 6.5, CW), M, y - 1.5, 8, { size: 6.5, color: GRAY }) + 1.5;
    // the detail wraps short of the line total, so long numbers never run into it
    const total = fitText(sheet, row.total, { size: 8, minSize: MIN_LEGIBLE_SIZE, width: CW / 2, maxLines: 1 });
    const detailWidth = CW - 6 - Math.max(...total.lines.map((l) => sheet.measure(l, total.size))) - 8;
    const detail = sheet.wrap(itemDetail(row), 7.5, detailWidth);
    sheet.lines(total.lines, ROLL_WIDTH - M, y, 9, { size: total.size, align: "right" });
    y = sheet.lines(detail, M + 6, y, 9, { size: 7.5, color: GRAY }) + Math.max(0, total.lines.length - detail.length) * 9;
    y += 3;
  }
  return separator(sheet, y - 9);
}

function tail(sheet: Sheet, ctx: RenderContext, top: number): number {
  let y = top;
  const refs = referenceRows(ctx.data.input);
  if (refs.length > 0) {
    sheet.text("Referencias", M, y + 8, { size: 7.5, font: "bold" });
    y += 17;
    for (const r of refs) {
      y = sheet.lines(sheet.wrap(`${r.tipo} N° ${r.folio} del ${r.fecha}`, 7.5, CW), M, y, 9, { size: 7.5 });
      if (r.razon) y = sheet.lines(sheet.wrap(r.razon, 7, CW), M, y, 8.5, { size: 7, color: GRAY });
    }
    y = separator(sheet, y - 6);
  }
  y += 8;
  for (const [label, value, grand] of totalRows(ctx.data.input, ctx.data.totals)) {
    const s = { size: grand ? 10 : 8, font: grand ? ("bold" as const) : ("regular" as const) };
    if (grand) y += 3;
    sheet.text(label, M, y, s);
    sheet.text(value, ROLL_WIDTH - M, y, { ...s, align: "right" });
    y += grand ? 13 : 10.5;
  }
  const obs = ctx.data.input.observaciones?.trim();
  if (obs) {
    y = separator(sheet, y - 8) + 8;
    sheet.text("Observaciones", M, y, { size: 7.5, font: "bold" });
    y = sheet.lines(sheet.wrap(obs, 7, CW, "regular", TERMICA_OBSERVACIONES_LINES), M, y + 9, 8.5, { size: 7 });
  }
  return y;
}

/**
 * At most this many lines of observaciones on the roll (which grows to fit): ~50 characters a line, so every
 * observaciones the API accepts (≤ 1 000 characters) prints whole unless it is mostly line breaks.
 */
const TERMICA_OBSERVACIONES_LINES = 80;

/**
 * Lays the document out on one 80 mm roll page and adds it to `ctx.doc`.
 *
 * @example
 * renderTermica(await createContext(printable, { formato: "termica" }));
 */
export function renderTermica(ctx: RenderContext): void {
  const sheet = new Sheet(ctx.fonts);
  let y = 12;
  if (ctx.preview) y = sheet.lines([PREVIEW_MARK], CX, y + 8, 10, { size: 9, font: "bold", color: RED, align: "center" });
  y = header(sheet, ctx, y);
  y = fields(sheet, ctx, y);
  y = items(sheet, ctx, y);
  y = tail(sheet, ctx, y) + 8;
  const timbre = timbreBlock(ctx, 62 * MM, 40 * MM);
  timbre.draw(sheet, CX - timbre.width / 2, y);
  y += timbre.height + 8;
  if (ctx.cedible) {
    const acuse = acuseBlock(sheet, CW, ctx.data.input.tipo);
    acuse.draw(sheet, M, y);
    y += acuse.height + 4;
  }
  const height = y + 10;
  if (ctx.preview) {
    for (let cy = 160; cy < height; cy += 320) sheet.watermark(PREVIEW_MARK, CX, cy, 15, 35, RED);
  }
  sheet.drawOn(ctx.doc.addPage([ROLL_WIDTH, height]), ctx.doc);
}
