/**
 * Rows of objects as CSV for spreadsheets, through the SDK's writer (RFC 4180, CRLF). Amounts stay plain integers so a
 * spreadsheet reads them as numbers. Chilean Excel expects `;` (its decimal separator is the comma): `--separator ";"`.
 */
import { writeCsv, type Separator } from "@timbre/sdk/csv";

export interface CsvColumn<T> {
  header: string;
  get: (row: T) => string | number | null | undefined;
}

export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[], separator: Separator = ","): string {
  return writeCsv([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => c.get(row)))], separator);
}
