/**
 * An emission spreadsheet (CSV) read into emission requests, each remembering the rows it came from, so that every
 * problem — the sheet's own or the API's — points at a spreadsheet row. One row is one line of a document; a
 * document's fields are written on its first row and may be repeated or left empty on its other rows.
 *
 * On a boleta (39/41) an empty receptor is the anonymous consumer (66666666-6) and an empty `precios_brutos` is
 * "sí" (shelf prices include IVA), as in the dashboard's form and the CLI's quick boleta. Beyond that nothing is
 * guessed: an unknown column, a cell that is not what its column holds or a document field that differs
 * between the rows of one document is a problem, and a sheet with problems should not be sent. Whether the documents
 * are valid (RUTs, required fields per tipo, amounts) is the API's to say, at preview or emission.
 */
import type { EmitParams, Referencia } from "../types.js";
import { fold, parseAmount, parseSheetDate, parseYesNo } from "./cells.js";
import { IGNORED_HEADERS, columnFor, type SheetColumn } from "./columns.js";
import { parseCsv, detectSeparator, type Separator } from "./csv-reader.js";
import { decodeText } from "./decode.js";
import { excelDate, isBinaryWorkbook, isZip, readWorkbookRows, WorkbookError, type WorkbookCell } from "./xlsx.js";

export interface SheetDocument {
  params: EmitParams;
  /** Spreadsheet row numbers of the document's rows (the header is row 1). */
  rows: number[];
  /** The row of each line: `itemRows[i]` wrote `items[i]`. */
  itemRows: number[];
  /** The `documento` cell, when the sheet has that column. */
  label?: string;
}

export type SheetProblemReason =
  | "empty"
  | "unknown_column"
  | "duplicate_column"
  | "no_document"
  | "conflict"
  | "no_items"
  | "invalid_value"
  | "not_a_sheet";

export interface SheetProblem {
  /** Spreadsheet row (the header is row 1). */
  row: number;
  /** The column's full name (`item.precio`), or the header as written for `unknown_column`. */
  column?: string;
  reason: SheetProblemReason;
  /** The cell as written, when one cell is wrong. */
  value?: string;
  /** For `conflict`: the row of the document that says otherwise, and what it says. */
  other?: { row: number; value: string };
  message: string;
}

export interface EmissionSheet {
  documents: SheetDocument[];
  problems: SheetProblem[];
  separator: Separator;
  /** Every record as written (row n is `records[n - 1]`): what a file of failed rows is cut from. */
  records: string[][];
}

interface Draft {
  label?: string;
  rows: number[];
  fields: Map<string, { value: string; row: number }>;
  lines: Array<{ row: number; cells: Map<string, string> }>;
}

/**
 * Reads a CSV (text, or the bytes of the file: UTF-8 or Windows-1252; `,`, `;` or tab) into emission requests.
 *
 * @example
 * const sheet = readEmissionSheet(await readFile("ventas.csv"));
 * if (sheet.problems.length === 0) await client.dte.batch({ documents: sheet.documents.map((d) => d.params) });
 */
export function readEmissionSheet(input: string | Uint8Array): EmissionSheet {
  const text = typeof input === "string" ? input.replace(/^\uFEFF/, "") : decodeText(input);
  const separator = detectSeparator(text);
  return sheetFromRecords(parseCsv(text, separator), separator);
}

/**
 * Reads a spreadsheet file as a user picks it: an Excel workbook (.xlsx: its first worksheet) or a CSV. An old binary
 * .xls, or a ZIP that is not a workbook, is a `not_a_sheet` problem.
 *
 * @example
 * const sheet = await readEmissionFile(await readFile("ventas.xlsx"));
 */
export async function readEmissionFile(bytes: Uint8Array): Promise<EmissionSheet> {
  const refuse = (message: string): EmissionSheet => ({ documents: [], problems: [{ row: 1, reason: "not_a_sheet", message }], separator: ";", records: [] });
  if (isBinaryWorkbook(bytes)) return refuse("an old Excel workbook (.xls) is not read: save it as .xlsx or CSV");
  if (!isZip(bytes)) return readEmissionSheet(bytes);
  try {
    return sheetFromRecords(workbookText(await readWorkbookRows(bytes)), ";");
  } catch (error) {
    if (error instanceof WorkbookError) return refuse(`not a readable Excel workbook: ${error.message}`);
    throw error;
  }
}

/**
 * A worksheet's cells as the text a CSV would hold, by their column: a number in a date column is an Excel date
 * serial, written `YYYY-MM-DD`; in an amount column it is written with a decimal comma (`1,495`, never read as
 * thousands), rounded to the API's 6 decimals; elsewhere as it prints.
 */
function workbookText(rows: WorkbookCell[][]): string[][] {
  const headerAt = rows.findIndex((row) => row.some((cell) => String(cell).trim() !== ""));
  const kinds = (rows[headerAt] ?? []).map((cell) => columnFor(String(cell), fold)?.kind);
  return rows.map((row, r) =>
    row.map((cell, c) => {
      if (typeof cell === "string") return cell;
      if (r !== headerAt && kinds[c] === "date") return excelDate(cell);
      if (kinds[c] === "amount") return String(Number(cell.toFixed(6))).replace(".", ",");
      return String(cell);
    }),
  );
}

/** Emission requests from a sheet's records (text cells; row n is `records[n - 1]`). */
function sheetFromRecords(records: string[][], separator: Separator): EmissionSheet {
  const problems: SheetProblem[] = [];
  const sheet = { documents: [] as SheetDocument[], problems, separator, records };
  const blank = (record: string[]) => record.every((cell) => cell.trim() === "");
  const headerAt = records.findIndex((record) => !blank(record));
  if (headerAt < 0) {
    problems.push({ row: 1, reason: "empty", message: "the sheet is empty: a header row and one row per document line are expected" });
    return sheet;
  }

  const columns = readHeader(records[headerAt]!, headerAt + 1, problems);
  if (problems.length > 0) return sheet;
  const hasLabel = columns.some((c) => c?.name === "documento");
  const drafts: Draft[] = [];
  const byLabel = new Map<string, Draft>();
  let previous: Draft | undefined;

  records.forEach((record, i) => {
    const row = i + 1;
    if (i <= headerAt) return;
    if (blank(record)) return;
    const cells = new Map<string, string>();
    columns.forEach((column, c) => {
      const value = (record[c] ?? "").trim();
      if (column && value !== "") cells.set(column.name, value);
    });
    const label = cells.get("documento");
    const startsNew = hasLabel ? label !== undefined && !byLabel.has(label) : cells.has("tipo");
    let draft = hasLabel && label !== undefined ? byLabel.get(label) : startsNew ? undefined : previous;
    if (!draft && !startsNew) {
      problems.push({ row, reason: "no_document", message: hasLabel ? "the row has no documento and there is no document above it" : "the row has no tipo and there is no document above it to add a line to" });
      return;
    }
    if (!draft) {
      draft = { label, rows: [], fields: new Map(), lines: [] };
      drafts.push(draft);
      if (label !== undefined) byLabel.set(label, draft);
    }
    previous = draft;
    draft.rows.push(row);
    const lineCells = new Map<string, string>();
    for (const [name, value] of cells) {
      const column = columnFor(name, fold)!;
      if (column.level === "item") {
        lineCells.set(name, value);
        continue;
      }
      const earlier = draft.fields.get(name);
      if (!earlier) draft.fields.set(name, { value, row });
      else if (earlier.value !== value) {
        problems.push({ row, column: name, reason: "conflict", value, other: { row: earlier.row, value: earlier.value }, message: `${name} is «${value}» here but «${earlier.value}» on row ${earlier.row} of the same document; repeat it or leave it empty` });
      }
    }
    if (lineCells.size > 0) draft.lines.push({ row, cells: lineCells });
  });

  for (const draft of drafts) {
    const document = toDocument(draft, problems);
    if (document) sheet.documents.push(document);
  }
  const order = (p: SheetProblem) => columns.findIndex((c) => c?.name === p.column);
  problems.sort((a, b) => a.row - b.row || order(a) - order(b));
  return sheet;
}

function readHeader(header: string[], row: number, problems: SheetProblem[]): Array<SheetColumn | undefined> {
  const seen = new Map<string, number>();
  return header.map((written, c) => {
    if (written.trim() === "" || IGNORED_HEADERS.has(fold(written))) return undefined;
    const column = columnFor(written, fold);
    if (!column) {
      problems.push({ row, column: written, reason: "unknown_column", value: written, message: `unknown column «${written}»; the columns are the emission request's fields (receptor.rut, item.nombre, item.precio…)` });
      return undefined;
    }
    if (seen.has(column.name)) {
      problems.push({ row, column: column.name, reason: "duplicate_column", value: written, message: `${column.name} appears twice (columns ${seen.get(column.name)! + 1} and ${c + 1})` });
    }
    seen.set(column.name, c);
    return column;
  });
}

function toDocument(draft: Draft, problems: SheetProblem[]): SheetDocument | null {
  const before = problems.length;
  const read = (name: string, value: string, row: number): unknown => {
    const column = columnFor(name, fold)!;
    const parsed = readCell(column, value);
    if (parsed === null) problems.push({ row, column: name, reason: "invalid_value", value, message: `${name} «${value}» is not ${EXPECTED[column.kind]}` });
    return parsed;
  };
  const field = (name: string): unknown => {
    const cell = draft.fields.get(name);
    return cell ? read(name, cell.value, cell.row) : undefined;
  };
  const params: Record<string, unknown> = {};
  const receptor: Record<string, unknown> = {};
  const referencia: Record<string, unknown> = {};
  for (const name of draft.fields.keys()) {
    if (name === "documento") continue;
    const value = field(name);
    if (name.startsWith("receptor.")) receptor[name.slice(9)] = value;
    else if (name.startsWith("referencia.")) referencia[name.slice(11)] = value;
    else if (name.startsWith("traslado.") || name.startsWith("transporte.")) setPath(params, name.split("."), value);
    else params[name] = value;
  }
  // A boleta's usual row names no buyer and gives the shelf price: the anonymous consumer, prices with IVA — as the
  // dashboard's form and the CLI's quick boleta do. A cell that says otherwise wins.
  if (params.tipo === 39 || params.tipo === 41) {
    if (receptor.rut === undefined) receptor.rut = ANONYMOUS.rut;
    if (receptor.razon_social === undefined && receptor.rut === ANONYMOUS.rut) receptor.razon_social = ANONYMOUS.razon_social;
    if (params.precios_brutos === undefined) params.precios_brutos = true;
  }
  params.receptor = receptor;
  if (Object.keys(referencia).length > 0) params.referencia = referencia as unknown as Referencia;
  params.items = draft.lines.map(({ row, cells }) => {
    const line: Record<string, unknown> = {};
    for (const [name, value] of cells) line[name.slice(5)] = read(name, value, row);
    return line;
  });
  if (draft.lines.length === 0) {
    problems.push({ row: draft.rows[0]!, reason: "no_items", message: "the document has no line: write item.nombre, item.cantidad and item.precio on its rows" });
  }
  if (problems.length > before) return null;
  return { params: params as unknown as EmitParams, rows: draft.rows, itemRows: draft.lines.map((l) => l.row), ...(draft.label !== undefined ? { label: draft.label } : {}) };
}

/** Sets `value` at a nested path (`transporte.chofer.rut`), making the objects on the way. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[path.at(-1)!] = value;
}

const EXPECTED: Record<SheetColumn["kind"], string> = {
  text: "text",
  amount: "a number (2,5 or 12.990)",
  tipo: "a tipo (33, 34, 39, 41, 52, 56 or 61)",
  date: "a date (2026-11-25 or 25-11-2026)",
  yesno: "sí or no",
  forma_pago: "1 (contado), 2 (crédito) or 3 (sin costo)",
  ref_value: "a value",
  codigo_ref: "1 (anula), 2 (corrige texto) or 3 (corrige montos)",
};

const TIPOS = new Set([33, 34, 39, 41, 52, 56, 61]);
const ANONYMOUS = { rut: "66666666-6", razon_social: "Consumidor final" };
const FORMAS_PAGO: Record<string, 1 | 2 | 3> = { "1": 1, "2": 2, "3": 3, contado: 1, efectivo: 1, credito: 2, "sin costo": 3, gratuito: 3, gratis: 3 };

/** The value a cell holds for its column, or null when it does not hold one. */
function readCell(column: SheetColumn, value: string): unknown {
  switch (column.kind) {
    case "text":
      return value;
    case "amount":
      return parseAmount(value);
    case "tipo": {
      const n = Number(value);
      return TIPOS.has(n) ? n : null;
    }
    case "date":
      return parseSheetDate(value);
    case "yesno":
      return parseYesNo(value);
    case "forma_pago":
      return FORMAS_PAGO[fold(value).replace(/^(al|a) /, "")] ?? null; // "al contado", "a crédito"
    case "codigo_ref":
      return ["1", "2", "3"].includes(value) ? Number(value) : null;
    case "ref_value":
      return /^\d+$/.test(value) ? Number(value) : value;
  }
}

/** A document's rows as a user finds them: `2`, `2–4` (consecutive), `2, 5`. */
export function rowSpan(rows: readonly number[]): string {
  const first = rows[0];
  const last = rows.at(-1);
  if (first === undefined || last === undefined) return "";
  return rows.length > 1 && rows.length === last - first + 1 ? `${first}–${last}` : rows.join(", ");
}

/**
 * The spreadsheet row an API error's field points at: `items[2].precio` is the row of the third line, anything else
 * the document's first row. A document without line rows (a JSON Lines one: `rows` is its line) is always its first.
 */
export function rowOfField(document: Pick<SheetDocument, "rows"> & { itemRows?: number[] }, field: string | undefined): number {
  const m = field ? /^items\[(\d+)\]/.exec(field) : null;
  return (m ? document.itemRows?.[Number(m[1])] : undefined) ?? document.rows[0]!;
}
