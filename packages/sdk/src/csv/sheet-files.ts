/**
 * Files around an emission sheet: a template to start from, and the failed rows of a run — the original rows with the
 * reason in an `error` column, which the reader ignores — so a user fixes only those and sends that file, instead of
 * sending the whole sheet again and emitting its good documents twice.
 */
import type { EmissionSheet, SheetDocument } from "./emission-sheet.js";
import { fold } from "./cells.js";
import { IGNORED_HEADERS } from "./columns.js";
import type { Separator } from "./csv-reader.js";

type Cell = string | number | null | undefined;

/**
 * CSV (RFC 4180): fields quoted when they hold the separator, a quote or a line break; CRLF line ends. Amounts stay
 * plain numbers (no `$`, no thousands dots) so a spreadsheet reads them as numbers. Excel in Chile expects `;`.
 */
export function writeCsv(records: ReadonlyArray<ReadonlyArray<Cell>>, separator: Separator = ","): string {
  const field = (value: Cell): string => {
    const text = value === null || value === undefined ? "" : String(value);
    return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return records.map((record) => record.map(field).join(separator)).join("\r\n") + "\r\n";
}

export interface FailedDocument {
  document: SheetDocument;
  /** The row the reason belongs to (default: the document's first row). */
  row?: number;
  message: string;
}

/** The header and every row of the failed documents, with each reason in an `error` column (one is added when missing). */
export function failedRowsCsv(sheet: EmissionSheet, failures: readonly FailedDocument[]): string {
  const headerRow = sheet.records.findIndex((record) => record.some((cell) => cell.trim() !== ""));
  const header = [...(sheet.records[headerRow] ?? [])];
  let errorColumn = header.findIndex((h) => IGNORED_HEADERS.has(fold(h)));
  if (errorColumn < 0) errorColumn = header.push("error") - 1;
  const reasons = new Map<number, string[]>();
  for (const failure of failures) {
    const row = failure.row ?? failure.document.rows[0]!;
    reasons.set(row, [...(reasons.get(row) ?? []), failure.message]);
  }
  const documents = [...new Set(failures.map((f) => f.document))];
  const rows = documents.flatMap((d) => d.rows).map((row) => {
    const record = Array.from({ length: header.length }, (_, c) => sheet.records[row - 1]?.[c] ?? "");
    record[errorColumn] = (reasons.get(row) ?? []).join("; ");
    return record;
  });
  return writeCsv([header, ...rows], sheet.separator);
}

/** A sheet to start from: every column, a factura of two lines and a boleta to an anonymous consumer. */
export function emissionSheetTemplate(separator: Separator = ","): string {
  const header = ["documento", "tipo", "fecha", "receptor.rut", "receptor.razon_social", "receptor.giro", "receptor.direccion", "receptor.comuna", "receptor.email", "item.nombre", "item.cantidad", "item.precio", "item.unidad", "item.descuento_porcentaje", "item.exento", "precios_brutos", "forma_pago", "observaciones"];
  const decimal = separator === "," ? "." : ",";
  return writeCsv(
    [
      header,
      ["F-1", 33, "", "76192083-9", "Comercial Los Andes SpA", "Venta de insumos", "Av. Providencia 1234", "Providencia", "pagos@losandes.cl", "Resma carta", 10, 3990, "UN", "", "no", "no", "2", "OC 4512"],
      ["F-1", "", "", "", "", "", "", "", "", "Despacho", 1, 5000, "", "", "sí", "", "", ""],
      ["B-1", 39, "", "66666666-6", "Consumidor final", "", "", "", "", "Café en grano 1 kg", `2${decimal}5`, 12990, "KG", 10, "no", "sí", "", ""],
    ],
    separator,
  );
}
