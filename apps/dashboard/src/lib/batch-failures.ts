/**
 * A document the API refused in a batch, said in Spanish at the spreadsheet row it points to: one entry per field of a
 * validation error (`items[1].precio` → the row of that line), otherwise one for the whole document (at the row of
 * `details.field` when there is one, else its first row). The same entries fill the results table and the `error`
 * column of the file of failed rows (`failedRowsCsv`), so the user reads one text in both places.
 */
import type { ApiErrorBody } from "@timbre/sdk";
import { errorPlaces, rowOfField, type FailedDocument, type SheetDocument } from "@timbre/sdk/csv";
import { ApiError } from "./api.js";
import { describeError, describeReason } from "./messages.js";

/** A field as the sheet's column names it: `items[1].precio` → `item.precio` (the row already says which line). */
export const columnOfField = (field: string): string => field.replace(/^items\[\d+\]\./, "item.");

export function failuresOf(document: SheetDocument, error: ApiErrorBody | undefined): FailedDocument[] {
  if (!error) return [{ document, row: rowOfField(document, undefined), message: "El servidor no emitió el documento." }];
  const e = new ApiError(0, error.code, error.message, error.details ?? {});
  return errorPlaces(document, error).map(({ row, issue, field }) => {
    if (issue) return { document, row, message: `${columnOfField(issue.field)}: ${describeReason(issue.reason, issue.message ?? "")}` };
    const reason = typeof e.details.reason === "string" ? e.details.reason : "";
    return { document, row, message: e.code === "VALIDATION_ERROR" && field ? `${columnOfField(field)}: ${describeReason(reason, e.message)}` : describeError(e) };
  });
}

/** Where the failed rows of `ventas.csv` go: `ventas.fallidos.csv` (and again there when that file is sent, as the CLI does). */
export function failedFileName(name: string): string {
  return `${name.replace(/\.(csv|txt|xlsx)$/i, "").replace(/\.fallidos$/i, "") || "ventas"}.fallidos.csv`;
}
