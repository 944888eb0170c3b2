/** Plain-text tables for human output (oclif 4 ships none; @oclif/table would pull in ink/react). */

export interface Column<T> {
  header: string;
  get: (row: T) => unknown;
  align?: "left" | "right";
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Renders rows as aligned columns with a header and a rule. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((column) => cell(column.get(row))));
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((r) => (r[i] ?? "").length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => (columns[i]?.align === "right" ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header)), line(widths.map((w) => "─".repeat(w))), ...cells.map(line)].join("\n");
}

/** Formats integer pesos the Chilean way: `$1.234.567`. */
export function formatPesos(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return "";
  return `$${Math.trunc(amount).toLocaleString("es-CL")}`;
}

/** Renders `key: value` lines, aligned. */
export function renderFields(fields: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(fields).map((k) => k.length));
  return Object.entries(fields)
    .map(([key, value]) => `${`${key}:`.padEnd(width + 1)} ${cell(value)}`)
    .join("\n");
}
