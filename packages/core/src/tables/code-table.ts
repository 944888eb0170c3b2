/**
 * A code table of the SII or the Aduana: each code with the words printed for it. Validation asks `hasCode`, the PDF
 * asks `codeName`.
 */
export interface CodeEntry<C extends number | string = number> {
  code: C;
  name: string;
}

export type CodeTable<C extends number | string = number> = readonly CodeEntry<C>[];

/**
 * Whether a table holds a code.
 *
 * @example
 * hasCode(SALE_CLAUSES, 5) // true (FOB)
 */
export function hasCode<C extends number | string>(table: CodeTable<C>, code: C): boolean {
  return table.some((e) => e.code === code);
}

/**
 * The words for a code, or the code itself when the table does not hold it (a printed document never hides a value).
 *
 * @example
 * codeName(SALE_CLAUSES, 5) // "FOB"
 */
export function codeName<C extends number | string>(table: CodeTable<C>, code: C): string {
  return table.find((e) => e.code === code)?.name ?? String(code);
}
