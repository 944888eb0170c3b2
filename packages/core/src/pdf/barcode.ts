/**
 * The printed timbre: the TED's ISO-8859-1 bytes as PDF417 (byte compaction, EC level 5, BRIEF §5), sized to the
 * SII minimums and drawn as vector rectangles in a Form XObject (crisp at any resolution, nothing to decode).
 */
import type { PDFDocument } from "pdf-lib";
import { TimbreError } from "../errors/index.js";
import { deflated, type PageWriter } from "./page-writer.js";
import { byteCompaction, encodePdf417, rowsFor, type Pdf417Symbol } from "./pdf417.js";

/** Points per millimetre. */
export const MM = 72 / 25.4;
/** Error-correction level required for the timbre. */
export const TIMBRE_EC_LEVEL = 5;
/** Minimum module width X (0.0067 in ≈ 0.17 mm). */
export const MIN_MODULE = 0.17 * MM;

export interface PlacedSymbol {
  symbol: Pdf417Symbol;
  /** Printed size in points (width fixed by the caller, height ≥ `minHeight`). */
  width: number;
  height: number;
}

/**
 * ISO-8859-1 bytes of the TED text; throws `CHARSET` on a character outside Latin-1 (such a TED cannot be valid).
 *
 * @example
 * tedBytes('<TED version="1.0">…</TED>') // Uint8Array
 */
export function tedBytes(ted: string): Uint8Array {
  const bytes = new Uint8Array(ted.length);
  for (let i = 0; i < ted.length; i++) {
    const code = ted.charCodeAt(i);
    if (code > 0xff) {
      throw new TimbreError("CHARSET", `TED character U+${code.toString(16).toUpperCase()} is not ISO-8859-1`, {
        details: { index: i },
      });
    }
    bytes[i] = code;
  }
  return bytes;
}

/**
 * Encodes the TED for a `width`-point-wide timbre no taller than `maxHeight` if possible: picks the fewest columns
 * (largest module) whose 3:1 rows fit, never below 0.17 mm modules; stretches rows to reach `minHeight`.
 *
 * @example
 * const placed = placeTimbre(ted, { width: 6 * 10 * MM, maxHeight: 32 * MM, minHeight: 20 * MM });
 */
export function placeTimbre(ted: string, box: { width: number; maxHeight: number; minHeight: number }): PlacedSymbol {
  const bytes = tedBytes(ted);
  const dataCount = byteCompaction(bytes).length;
  let best: { columns: number; height: number } | null = null;
  for (let columns = 1; columns <= 30; columns++) {
    const rows = rowsFor(dataCount, columns, TIMBRE_EC_LEVEL);
    const module = box.width / (69 + 17 * columns);
    if (rows === null || module < MIN_MODULE) continue;
    const height = rows * 3 * module;
    if (height <= box.maxHeight) {
      best = { columns, height };
      break;
    }
    if (!best || height < best.height) best = { columns, height };
  }
  if (!best) throw new RangeError(`timbre of ${bytes.length} bytes does not fit ${box.width} pt`);
  const symbol = encodePdf417(bytes, { columns: best.columns, level: TIMBRE_EC_LEVEL });
  return { symbol, width: box.width, height: Math.max(best.height, box.minHeight) };
}

/** The symbol's modules as `re` operators in module units (x right, y up, one unit per row). */
function symbolContent(symbol: Pdf417Symbol): string {
  const parts: string[] = ["0 g"];
  symbol.modules.forEach((row, r) => {
    const y = symbol.rows - 1 - r;
    let x = 0;
    while (x < symbol.width) {
      if (row[x] !== 1) {
        x++;
        continue;
      }
      const start = x;
      while (x < symbol.width && row[x] === 1) x++;
      parts.push(`${start} ${y} ${x - start} 1 re`);
    }
  });
  parts.push("f");
  return parts.join("\n");
}

/**
 * Draws `symbol` into `box` (PDF user space, origin bottom-left) as one Form XObject.
 *
 * @example
 * drawSymbol(doc, writer, placed.symbol, { x: 60, y: 60, width: placed.width, height: placed.height });
 */
export function drawSymbol(
  doc: PDFDocument,
  out: PageWriter,
  symbol: Pdf417Symbol,
  box: { x: number; y: number; width: number; height: number },
): void {
  const form = doc.context.stream(deflated(symbolContent(symbol)), {
    Type: "XObject",
    Subtype: "Form",
    BBox: [0, 0, symbol.width, symbol.rows],
    Filter: "FlateDecode",
  });
  out.xobjectAt(doc.context.register(form), box.width / symbol.width, box.height / symbol.rows, box.x, box.y);
}
