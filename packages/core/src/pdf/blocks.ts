/** Blocks shared by both formats: the timbre (or the preview placeholder) and the acuse de recibo. */
import { MM, placeTimbre } from "./barcode.js";
import { ACUSE_FIELDS, ACUSE_TEXT, cedibleLegend, PREVIEW_MARK, timbreLegends } from "./content.js";
import type { RenderContext } from "./context.js";
import { BLACK, GRAY, RED, type Sheet } from "./sheet.js";

export interface Block {
  width: number;
  height: number;
  /** Draws the block with its top-left corner at (x, top). */
  draw(sheet: Sheet, x: number, top: number): void;
}

const LEGEND_SIZE = 7.5;
const LEGEND_LEADING = 9.5;

/**
 * The PDF417 timbre with its legends, `width` wide (≥ the SII minimum the caller guarantees); on a preview a dashed
 * placeholder with `SIN VALIDEZ TRIBUTARIA` instead.
 *
 * @example
 * const block = timbreBlock(ctx, 60 * MM, 32 * MM); block.draw(sheet, 62, 600);
 */
export function timbreBlock(ctx: RenderContext, width: number, maxHeight: number): Block {
  const ted = ctx.data.ted;
  if (ctx.preview || ted === null) {
    const height = 20 * MM;
    return {
      width,
      height: height + 4 + LEGEND_LEADING,
      draw(sheet, x, top) {
        sheet.rect(x, top, width, height, { stroke: RED, lineWidth: 1 });
        sheet.text(PREVIEW_MARK, x + width / 2, top + height / 2 - 2, { size: 10, font: "bold", color: RED, align: "center" });
        sheet.text("Vista previa: sin timbre electrónico", x + width / 2, top + height / 2 + 10,
          { size: 7, color: RED, align: "center" });
        sheet.text("Documento no emitido", x + width / 2, top + height + 4 + 7, { size: LEGEND_SIZE, color: GRAY, align: "center" });
      },
    };
  }
  const placed = placeTimbre(ted, { width, maxHeight, minHeight: 20 * MM });
  const legends = timbreLegends(ctx.data.resolution);
  return {
    width,
    height: placed.height + 4 + legends.length * LEGEND_LEADING,
    draw(sheet, x, top) {
      sheet.barcode(placed.symbol, x, top, placed.width, placed.height);
      legends.forEach((line, i) =>
        sheet.text(line, x + width / 2, top + placed.height + 4 + 7 + i * LEGEND_LEADING, {
          size: LEGEND_SIZE,
          font: i === 0 ? "bold" : "regular",
          align: "center",
        }),
      );
    },
  };
}

/**
 * Acuse de recibo (Ley 19.983) with the `CEDIBLE` legend under it.
 *
 * @example
 * acuseBlock(sheet, 250, 33).draw(sheet, 322, 620);
 */
export function acuseBlock(sheet: Sheet, width: number, tipo: number): Block {
  const sentence = sheet.wrap(ACUSE_TEXT, 6.3, width - 12);
  const fieldRows = 3;
  const height = 14 + fieldRows * 17 + sentence.length * 7.6 + 6;
  return {
    width,
    height: height + 22,
    draw(s, x, top) {
      s.rect(x, top, width, height, { stroke: BLACK, lineWidth: 0.75 });
      s.text("ACUSE DE RECIBO", x + 6, top + 11, { size: 8, font: "bold" });
      const half = (width - 12) / 2;
      ACUSE_FIELDS.forEach((label, i) => {
        const col = i < 4 ? i % 2 : 0;
        const row = i < 4 ? Math.floor(i / 2) : 2;
        const fx = x + 6 + col * half;
        const lineEnd = i === 4 ? x + width - 6 : fx + half - 8;
        const y = top + 14 + row * 17 + 12;
        s.text(`${label}:`, fx, y, { size: 7.5, font: "bold" });
        s.line(fx + s.measure(`${label}:`, 7.5, "bold") + 3, y + 1.5, lineEnd, y + 1.5, { width: 0.5, color: GRAY });
      });
      s.lines(sentence, x + 6, top + 14 + fieldRows * 17 + 7, 7.6, { size: 6.3, color: BLACK });
      s.text(cedibleLegend(tipo), x + width, top + height + 17, { size: 15, font: "bold", align: "right" });
    },
  };
}
