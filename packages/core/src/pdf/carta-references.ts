/** Letter layout, the references table: type, folio (up to 18 characters, wrapped if need be), date and reason. */
import { MARGIN, RIGHT } from "./carta-header.js";
import { referenceRows, type ReferenceRow } from "./content.js";
import type { RenderContext } from "./context.js";
import { LIGHT, SHADE, type Sheet } from "./sheet.js";
import type { Row, Segment } from "./carta-table.js";

/** Left edges; each column ends 6 pt before the next one. "OC-123456789012345" fits the folio column whole. */
const REF = { tipo: MARGIN + 6, folio: MARGIN + 162, fecha: MARGIN + 264, razon: MARGIN + 320 };
const SIZE = 8;
const LEADING = 10;

function drawReferencesHeader(sheet: Sheet, top: number, continued: boolean): number {
  sheet.text(continued ? "Referencias (continuación)" : "Referencias", MARGIN, top + 13, { size: 8.5, font: "bold" });
  const y = top + 17;
  sheet.rect(MARGIN, y, RIGHT - MARGIN, 13, { fill: SHADE });
  const h = { size: 7.5, font: "bold" as const };
  sheet.text("Tipo de documento", REF.tipo, y + 9.5, h);
  sheet.text("Folio", REF.folio, y + 9.5, h);
  sheet.text("Fecha", REF.fecha, y + 9.5, h);
  sheet.text("Razón", REF.razon, y + 9.5, h);
  return y + 13;
}

function referenceRow(sheet: Sheet, ref: ReferenceRow): Row {
  const columns = [
    [REF.tipo, sheet.wrap(ref.tipo, SIZE, REF.folio - REF.tipo - 6)],
    [REF.folio, sheet.wrap(ref.folio, SIZE, REF.fecha - REF.folio - 6)],
    [REF.fecha, sheet.wrap(ref.fecha, SIZE, REF.razon - REF.fecha - 6)],
    [REF.razon, sheet.wrap(ref.razon, SIZE, RIGHT - 6 - REF.razon)],
  ] as const;
  const height = 4 + Math.max(...columns.map(([, lines]) => lines.length), 1) * LEADING;
  return {
    height,
    minHeight: height,
    draw(s, top) {
      for (const [x, lines] of columns) s.lines(lines, x, top + 9.5, LEADING, { size: SIZE });
      s.line(MARGIN, top + height, RIGHT, top + height, { color: LIGHT });
    },
  };
}

/**
 * The references table as a flowing segment.
 *
 * @example
 * const { header, rows } = referencesSegment(sheet, ctx); // rows: [] when the document has no references
 */
export function referencesSegment(sheet: Sheet, ctx: RenderContext): Segment {
  return { header: drawReferencesHeader, rows: referenceRows(ctx.data.input).map((r) => referenceRow(sheet, r)) };
}
