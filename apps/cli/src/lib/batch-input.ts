/**
 * The documents of a batch file, each with where it came from so every problem names a place the user can find:
 * a spreadsheet (CSV or Excel .xlsx, read by `@timbre/sdk/csv`: rows), JSON Lines (line numbers, blank lines counted) or a JSON
 * array (positions). The kind is told by the content, not the file name: JSON starts with `{` or `[`.
 */
import type { ApiErrorBody, EmitParams } from "@timbre/sdk";
import { errorPlaces, readEmissionFile, type EmissionSheet, type SheetDocument } from "@timbre/sdk/csv";
import { CommandFailure, EXIT } from "./base-command.js";

export interface BatchDocument {
  params: EmitParams;
  /** CSV rows, the JSONL line, or the 1-based array position. */
  rows: number[];
  /** The spreadsheet document, for CSV input. */
  sheet?: SheetDocument;
}

export interface BatchInput {
  kind: "csv" | "jsonl" | "json";
  /** How a place is called in messages and tables. */
  place: "row" | "line" | "#";
  documents: BatchDocument[];
  sheet?: EmissionSheet;
}

export async function readBatchInput(bytes: Buffer, path: string): Promise<BatchInput> {
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  const start = text.trimStart()[0];
  if (start === "[") return { kind: "json", place: "#", documents: parseArray(text, path) };
  if (start === "{") return { kind: "jsonl", place: "line", documents: parseLines(text, path) };
  const sheet = await readEmissionFile(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (sheet.problems.length > 0) {
    const lines = sheet.problems.map((p) => `  row ${p.row}${p.column ? ` (${p.column})` : ""}: ${p.message}`);
    const message = `${path} has ${sheet.problems.length} problem${sheet.problems.length === 1 ? "" : "s"}; nothing was sent:\n${lines.join("\n")}`;
    throw new CommandFailure(message, { code: "INVALID_BATCH_FILE", message: `${path} has problems; nothing was sent`, details: { problems: sheet.problems } }, EXIT.usage);
  }
  return { kind: "csv", place: "row", sheet, documents: sheet.documents.map((d) => ({ params: d.params, rows: d.rows, sheet: d })) };
}

const invalid = (message: string) => new CommandFailure(message, { code: "INVALID_BATCH_FILE", message }, EXIT.usage);

function parseArray(text: string, path: string): BatchDocument[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(`${path} is not a valid JSON array: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw invalid(`${path} has no documents.`);
  return parsed.map((params, i) => ({ params: params as EmitParams, rows: [i + 1] }));
}

function parseLines(text: string, path: string): BatchDocument[] {
  const documents: BatchDocument[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      documents.push({ params: JSON.parse(line) as EmitParams, rows: [i + 1] });
    } catch (error) {
      throw invalid(`${path} line ${i + 1} is not valid JSON: ${(error as Error).message}`);
    }
  });
  if (documents.length === 0) throw invalid(`${path} has no documents.`);
  return documents;
}

export interface Problem {
  /** Where: the spreadsheet row of the field, else the document's first place. */
  at: number;
  code: string;
  message: string;
}

/**
 * An API error of one document as problems at places (`errorPlaces`): a validation error gives one problem per
 * field, on the row of the line it names (`items[2].precio` → that line's row) for spreadsheets, on its line for JSON
 * Lines.
 */
export function problemsOf(document: BatchDocument, error: ApiErrorBody): Problem[] {
  return errorPlaces(document.sheet ?? document, error).map(({ row, issue }) => ({
    at: row,
    code: error.code,
    message: issue ? `${issue.field}: ${issue.message ?? issue.reason}` : error.message,
  }));
}
