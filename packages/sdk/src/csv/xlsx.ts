/**
 * The first worksheet of an Excel workbook (.xlsx) as rows of cells — strings as written, numbers as numbers — so a
 * sales workbook can be imported without "Guardar como CSV". No dependency: the ZIP directory is read here and its
 * entries inflated with the platform's `DecompressionStream("deflate-raw")` (Node ≥ 20, Bun, browsers); the sheet's
 * XML is regular enough (SpreadsheetML, ECMA-376 §18.3) to be read by pattern: shared strings (`t="s"`), inline
 * strings, booleans, numbers, formulas by their cached value. Styles are not read: a date is a number (days since
 * 1899-12-30) that the caller converts where its column holds dates. Old binary .xls workbooks are not read.
 */

export type WorkbookCell = string | number;

/** Whether the bytes are a ZIP archive (an .xlsx, or another ZIP the caller will find is not one). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Whether the bytes are an old binary .xls workbook (OLE compound file), which is not read. */
export function isBinaryWorkbook(bytes: Uint8Array): boolean {
  return [0xd0, 0xcf, 0x11, 0xe0].every((b, i) => bytes[i] === b);
}

export class WorkbookError extends Error {}

interface ZipEntry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

function zipEntries(bytes: Uint8Array): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new WorkbookError("not a ZIP archive (no central directory)");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = new Map<string, ZipEntry>();
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new WorkbookError("damaged ZIP directory");
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.set(name, { method: view.getUint16(at + 10, true), compressedSize: view.getUint32(at + 20, true), localOffset: view.getUint32(at + 42, true) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

async function readEntry(bytes: Uint8Array, entries: Map<string, ZipEntry>, name: string): Promise<string | null> {
  const entry = entries.get(name);
  if (!entry) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = entry.localOffset + 30 + view.getUint16(entry.localOffset + 26, true) + view.getUint16(entry.localOffset + 28, true);
  const data = bytes.slice(start, start + entry.compressedSize);
  if (entry.method === 0) return new TextDecoder().decode(data);
  if (entry.method !== 8) throw new WorkbookError(`unsupported ZIP compression ${entry.method}`);
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === "#" ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e.toLowerCase()] ?? ""),
  );
}

/** The text of every `<t>` inside `xml` (a shared string, or an inline one), joined: rich text runs are one string. */
function textOf(xml: string): string {
  return [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((m) => unescapeXml(m[1] ?? "")).join("");
}

const attribute = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** "B12" → 1 (column index from 0). */
function columnIndex(ref: string): number {
  const letters = /^[A-Z]+/.exec(ref)?.[0] ?? "A";
  return [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

/** The first worksheet's rows; row n of the sheet is `rows[n - 1]` (empty rows kept, so row numbers are Excel's). */
export async function readWorkbookRows(bytes: Uint8Array): Promise<WorkbookCell[][]> {
  const entries = zipEntries(bytes);
  const workbook = await readEntry(bytes, entries, "xl/workbook.xml");
  if (workbook === null) throw new WorkbookError("not an Excel workbook (no xl/workbook.xml)");
  const firstSheet = /<sheet\s[^>]*>/.exec(workbook)?.[0];
  const relId = firstSheet && (attribute(firstSheet, "r:id") ?? attribute(firstSheet, "[a-z0-9]+:id"));
  const rels = (await readEntry(bytes, entries, "xl/_rels/workbook.xml.rels")) ?? "";
  const relation = [...rels.matchAll(/<Relationship\s[^>]*>/g)].map((m) => m[0]).find((tag) => attribute(tag, "Id") === relId);
  const target = (relation && attribute(relation, "Target")) ?? "worksheets/sheet1.xml";
  const path = target.startsWith("/") ? target.slice(1) : `xl/${target}`;
  const sheet = await readEntry(bytes, entries, path);
  if (sheet === null) throw new WorkbookError(`the workbook has no worksheet ${path}`);
  const sharedXml = (await readEntry(bytes, entries, "xl/sharedStrings.xml")) ?? "";
  const shared = [...sharedXml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => textOf(m[1] ?? ""));

  const rows: WorkbookCell[][] = [];
  for (const row of sheet.matchAll(/<row\s([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const number = Number(attribute(` ${row[1]}`, "r") ?? rows.length + 1);
    const cells: WorkbookCell[] = [];
    for (const cell of (row[2] ?? "").matchAll(/<c\s([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const tag = ` ${cell[1]}`;
      const body = cell[2] ?? "";
      const type = attribute(tag, "t") ?? "n";
      const raw = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      let value: WorkbookCell = "";
      if (type === "s") value = shared[Number(raw)] ?? "";
      else if (type === "inlineStr") value = textOf(body);
      else if (type === "str" || type === "e" || type === "d") value = unescapeXml(raw ?? ""); // d: an ISO date (strict OOXML)
      else if (type === "b") value = raw === "1" ? "sí" : "no";
      else if (raw !== undefined && raw !== "" && Number.isFinite(Number(raw))) value = Number(raw);
      const ref = attribute(tag, "r");
      const at = ref ? columnIndex(ref) : cells.length;
      while (cells.length < at) cells.push("");
      cells[at] = value;
    }
    while (rows.length < number - 1) rows.push([]);
    rows[number - 1] = cells;
  }
  return rows;
}

/** An Excel date serial (days since 1899-12-30, Excel's leap-1900 bug included) as `YYYY-MM-DD`. */
export function excelDate(serial: number): string {
  return new Date(Date.UTC(1899, 11, 30) + Math.floor(serial) * 86_400_000).toISOString().slice(0, 10);
}
