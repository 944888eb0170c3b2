/**
 * A page being laid out, in top-left coordinates (y grows downwards, points). Drawing calls are recorded and replayed
 * onto a pdf-lib page by `drawOn`, so a layout can measure its height before the page exists (thermal roll).
 */
import { rgb, type PDFDocument, type PDFFont, type PDFImage, type PDFPage, type RGB } from "pdf-lib";
import { drawSymbol } from "./barcode.js";
import { PageWriter } from "./page-writer.js";
import type { Pdf417Symbol } from "./pdf417.js";
import { drawnWidth, toWinAnsi, wrapText } from "./text.js";

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
}
export type FontKind = keyof Fonts;

export interface TextStyle {
  size: number;
  font?: FontKind;
  color?: RGB;
  /** How `x` anchors the text. */
  align?: "left" | "right" | "center";
}

export const BLACK = rgb(0, 0, 0);
export const GRAY = rgb(0.35, 0.35, 0.35);
export const LIGHT = rgb(0.82, 0.82, 0.82);
export const SHADE = rgb(0.93, 0.93, 0.93);
export const RED = rgb(0.82, 0.07, 0.07);

type Op = (out: PageWriter, doc: PDFDocument, height: number) => void;

/**
 * @example
 * const sheet = new Sheet(fonts); sheet.text("Hola", 40, 60, { size: 9 }); sheet.drawOn(doc.addPage(), doc);
 */
export class Sheet {
  private readonly ops: Op[] = [];

  constructor(readonly fonts: Fonts) {}

  /** Width of (WinAnsi-safe) text. */
  measure(text: string, size: number, font: FontKind = "regular"): number {
    return drawnWidth(this.fonts[font], toWinAnsi(text), size);
  }

  /** Lines of `text` wrapped to `maxWidth`. */
  wrap(text: string, size: number, maxWidth: number, font: FontKind = "regular", maxLines = Infinity): string[] {
    return wrapText(text, this.fonts[font], size, maxWidth, maxLines);
  }

  /** One line of text; `baseline` is measured from the top of the page. */
  text(value: string, x: number, baseline: number, style: TextStyle): void {
    const font = this.fonts[style.font ?? "regular"];
    const safe = toWinAnsi(value);
    if (safe.trim() === "") return;
    const width = drawnWidth(font, safe, style.size);
    const left = style.align === "right" ? x - width : style.align === "center" ? x - width / 2 : x;
    const color = style.color ?? BLACK;
    this.ops.push((out, _doc, h) => out.text(safe, left, h - baseline, font, style.size, color));
  }

  /** Several lines, `leading` apart; returns the baseline after the last one. */
  lines(values: string[], x: number, baseline: number, leading: number, style: TextStyle): number {
    values.forEach((v, i) => this.text(v, x, baseline + i * leading, style));
    return baseline + values.length * leading;
  }

  rect(x: number, top: number, width: number, height: number, paint: { fill?: RGB; stroke?: RGB; lineWidth?: number }): void {
    this.ops.push((out, _doc, h) => out.rect(x, h - top - height, width, height, paint));
  }

  line(x1: number, y1: number, x2: number, y2: number, style: { width?: number; color?: RGB; dash?: number[] } = {}): void {
    this.ops.push((out, _doc, h) => out.line(x1, h - y1, x2, h - y2, style.width ?? 0.5, style.color ?? LIGHT, style.dash));
  }

  image(image: PDFImage, x: number, top: number, width: number, height: number): void {
    this.ops.push((out, _doc, h) => out.xobjectAt(image.ref, width, height, x, h - top - height));
  }

  /** A PDF417 symbol as vector modules filling the given box (quiet zone is the caller's margin). */
  barcode(symbol: Pdf417Symbol, x: number, top: number, width: number, height: number): void {
    this.ops.push((out, doc, h) => drawSymbol(doc, out, symbol, { x, y: h - top - height, width, height }));
  }

  /** Large rotated translucent text centred on (cx, cy). */
  watermark(value: string, cx: number, cy: number, size: number, angle: number, color: RGB): void {
    const font = this.fonts.bold;
    const safe = toWinAnsi(value);
    const w = drawnWidth(font, safe, size);
    const rad = (angle * Math.PI) / 180;
    // start so that the text's centre lands on (cx, cy) after rotation about its start point
    const dx = (w / 2) * Math.cos(rad) - size * 0.35 * Math.sin(rad);
    const dy = (w / 2) * Math.sin(rad) + size * 0.35 * Math.cos(rad);
    this.ops.push((out, _doc, h) => out.text(safe, cx - dx, h - cy - dy, font, size, color, angle, 0.18));
  }

  /** Replays everything onto `page` (whose height converts top-based y). */
  drawOn(page: PDFPage, doc: PDFDocument): void {
    const height = page.getHeight();
    const out = new PageWriter(doc, page);
    for (const op of this.ops) op(out, doc, height);
    out.finish();
  }
}
