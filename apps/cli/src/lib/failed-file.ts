/**
 * After a batch with failures, the failed documents go to a file beside the input (`ventas.csv` →
 * `ventas.fallidos.csv`): the spreadsheet's own rows with an `error` column, or the JSON Lines of the failed
 * requests. The user fixes that file and sends it, never the whole input again (its good documents are emitted).
 */
import { writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import type { EmitParams } from "@timbre/sdk";
import { failedRowsCsv } from "@timbre/sdk/csv";
import type { BatchDocument, BatchInput, Problem } from "./batch-input.js";

export function defaultFailedPath(input: string, kind: BatchInput["kind"]): string {
  const stem = basename(input, extname(input)).replace(/\.fallidos$/, "");
  return join(dirname(input), `${stem}.fallidos.${kind === "csv" ? "csv" : "jsonl"}`);
}

export function writeFailedFile(path: string, input: BatchInput, failed: ReadonlyArray<{ document: BatchDocument; problems: Problem[] }>): void {
  if (input.sheet) {
    const failures = failed.flatMap(({ document, problems }) => problems.map((p) => ({ document: document.sheet!, row: p.at, message: p.message })));
    writeFileSync(path, `\uFEFF${failedRowsCsv(input.sheet, failures)}`);
    return;
  }
  const lines = failed.map(({ document }) => JSON.stringify(document.params satisfies EmitParams));
  writeFileSync(path, `${lines.join("\n")}\n`);
}
