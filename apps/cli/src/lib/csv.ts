/**
 * CSV (RFC 4180) for spreadsheets: a header row, fields quoted when they hold the separator, a quote or a line break,
 * CRLF line ends. Amounts stay plain integers (no `$`, no thousands dots) so that a spreadsheet reads them as numbers.
 * Chilean Excel expects `;` (its decimal separator is the comma): `--separator ";"`.
 */
export interface CsvColumn<T> {
  header: string;
  get: (row: T) => string | number | null | undefined;
}

export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[], separator = ","): string {
  const field = (value: string | number | null | undefined): string => {
    const text = value === null || value === undefined ? "" : String(value);
    return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const line = (values: Array<string | number | null | undefined>) => values.map(field).join(separator);
  return [line(columns.map((c) => c.header)), ...rows.map((row) => line(columns.map((c) => c.get(row))))].join("\r\n") + "\r\n";
}
