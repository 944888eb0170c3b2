// Emit the sales of a spreadsheet (CSV or Excel .xlsx): read it, let the API check every document, emit the valid
// ones and write the failed rows beside it. Each document is keyed by its content, so running this again with the
// sheet fixed — or after an interruption — emits only what was not emitted before.
// Run: TIMBRE_API_KEY=sk_test_… node import-sheet.js ventas.csv   (TIMBRE_API_URL defaults to http://localhost:3000/v1)
// The failed rows go to OUT_DIR, by default `out/` beside this script (git-ignored), never the current folder.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Timbre } from "@timbre/sdk";
import { errorPlaces, failedRowsCsv, readEmissionFile } from "@timbre/sdk/csv";

const path = process.argv[2] ?? "ventas.csv";
const client = new Timbre({
  apiKey: process.env.TIMBRE_API_KEY,
  baseUrl: process.env.TIMBRE_API_URL ?? "http://localhost:3000/v1",
});

// 1. Read the whole sheet first: a sheet with problems sends nothing.
const sheet = await readEmissionFile(await readFile(path));
if (sheet.problems.length > 0) {
  for (const p of sheet.problems) console.error(`row ${p.row}${p.column ? ` (${p.column})` : ""}: ${p.message}`);
  process.exit(2);
}
const documents = sheet.documents.map((d) => d.params);

/**
 * An API error of a document at its rows (`items[1].precio` is that line's row).
 * @param {import("@timbre/sdk/csv").SheetDocument} document
 * @param {import("@timbre/sdk").ApiErrorBody | undefined} error
 */
const reasons = (document, error) =>
  errorPlaces(document, error).map(({ row, issue }) => ({ row, message: issue ? `${issue.field}: ${issue.message ?? issue.reason}` : (error?.message ?? "not emitted") }));

// 2. The API's verdict on every document, without emitting: totals, or what the batch would refuse.
const checked = await client.dte.batchPreviewAll(documents, { contentKeys: true });
const emittedBefore = checked.results.filter((r) => r.replayed).length;
const refused = checked.results.filter((r) => !r.success).length;
console.log(`${documents.length} documents: ${documents.length - emittedBefore - refused} to emit, ${emittedBefore} emitted before, ${refused} with problems`);

// 3. Emit. Documents emitted before (same content, within 24 h) come back `replayed` with their folios.
const { results } = await client.dte.batchAll(documents, { contentKeys: true });
const failures = [];
for (const r of results) {
  const document = sheet.documents[r.index];
  if (r.success && r.data) {
    console.log(`rows ${document.rows.join(",")}: tipo ${r.data.tipo} folio ${r.data.folio} ${r.data.estado}${r.replayed ? " (emitted before)" : ""}`);
  } else {
    for (const { row, message } of reasons(document, r.error)) {
      console.log(`row ${row}: ${message}`);
      failures.push({ document, row, message });
    }
  }
}

// 4. The failed documents' own rows, with an `error` column the reader ignores: fix them there, or in the sheet.
if (failures.length > 0) {
  const outDir = process.env.OUT_DIR || fileURLToPath(new URL("out", import.meta.url));
  await mkdir(outDir, { recursive: true });
  const failedPath = join(outDir, basename(path).replace(/\.(csv|xlsx)$/i, "") + ".fallidos.csv");
  await writeFile(failedPath, `\uFEFF${failedRowsCsv(sheet, failures)}`);
  console.log(`Failed rows written to ${failedPath}`);
  process.exitCode = 1;
}
