/** An API error of a batch document placed at the rows of its spreadsheet (or its JSON Lines line). */
import { issuesFrom, type ValidationIssue } from "../errors.js";
import type { ApiErrorBody } from "../types.js";
import { rowOfField, type SheetDocument } from "./emission-sheet.js";

/** Where an API error of a document falls: the row, and the field issue placed there (none: the error as a whole). */
export interface ErrorPlace {
  row: number;
  issue?: ValidationIssue;
  /** `details.field` of an error without a list of issues (it chose the row). */
  field?: string;
}

/**
 * An API error of a batch document at its rows: one place per issue of `details.errors` (`items[1].precio` at that
 * line's row), otherwise one place for the whole error, at the row of `details.field` when there is one. The CLI
 * and the dashboard word the places themselves.
 */
export function errorPlaces(document: Pick<SheetDocument, "rows"> & { itemRows?: number[] }, error: ApiErrorBody | undefined): ErrorPlace[] {
  const details = error?.details;
  const issues = Array.isArray(details?.["errors"]) ? issuesFrom(details).filter((i) => i.field !== "") : [];
  if (issues.length > 0) return issues.map((issue) => ({ row: rowOfField(document, issue.field), issue }));
  const field = typeof details?.["field"] === "string" ? details["field"] : undefined;
  return [{ row: rowOfField(document, field), ...(field !== undefined ? { field } : {}) }];
}
