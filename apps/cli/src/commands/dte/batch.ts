import { Flags } from "@oclif/core";
import type { BatchResultItem, EmitParams } from "@timbre/sdk";
import { CommandFailure, EXIT, TimbreCommand } from "../../lib/base-command.js";
import { readInput } from "../../lib/files.js";
import { ProgressBar } from "../../lib/progress.js";
import { formatPesos, renderTable } from "../../lib/table.js";

export default class DteBatch extends TimbreCommand<typeof DteBatch> {
  static override summary = "Emit many documents from a JSON Lines file";
  static override description =
    "One emission request per line (a JSON array file works too). Sent in chunks of up to 500 (the API limit); " +
    "exits with status 1 when any document failed.";
  static override examples = ["<%= config.bin %> dte batch --file boletas.jsonl", "<%= config.bin %> dte batch --file docs.jsonl --chunk-size 100 --json"];
  static override flags = {
    file: Flags.string({ char: "f", description: "JSON Lines file", required: true }),
    "chunk-size": Flags.integer({ description: "documents per request", default: 500, min: 1, max: 500 }),
  };

  async run() {
    const documents = parseDocuments(readInput(this.flags.file).toString("utf8"), this.flags.file);
    this.requireBusiness();
    const client = await this.client();
    const size = this.flags["chunk-size"];
    const progress = new ProgressBar(documents.length, process.stderr, !this.jsonEnabled());
    const results: BatchResultItem[] = [];
    progress.update(0);
    for (let start = 0; start < documents.length; start += size) {
      const chunk = documents.slice(start, start + size);
      const { results: chunkResults } = await client.dte.batch({ documents: chunk });
      for (const result of chunkResults) results.push({ ...result, index: result.index + start });
      progress.update(results.length, `${results.filter((r) => !r.success).length} failed`);
    }
    progress.finish();
    const failed = results.filter((r) => !r.success);
    const emitted = results.filter((r) => r.success);
    if (failed.length > 0) process.exitCode = 1;
    const summary = {
      total: documents.length,
      emitted: emitted.length,
      failed: failed.length,
      monto_total: emitted.reduce((sum, r) => sum + (r.data?.monto_total ?? 0), 0),
      results,
    };
    return this.output(summary, (s) => {
      const lines = [`${s.emitted} emitted, ${s.failed} failed, of ${s.total} (total ${formatPesos(s.monto_total)}).`];
      if (failed.length > 0) {
        lines.push(
          "",
          renderTable(failed, [
            { header: "LINE", get: (r) => r.index + 1, align: "right" },
            { header: "CODE", get: (r) => r.error?.code },
            { header: "MESSAGE", get: (r) => r.error?.message },
          ]),
        );
      }
      return lines.join("\n");
    });
  }
}

function parseDocuments(text: string, path: string): EmitParams[] {
  const trimmed = text.trim();
  const fail = (message: string) => new CommandFailure(message, { code: "INVALID_BATCH_FILE", message }, EXIT.usage);
  if (trimmed.startsWith("[")) {
    try {
      return JSON.parse(trimmed) as EmitParams[];
    } catch (error) {
      throw fail(`${path} is not a valid JSON array: ${(error as Error).message}`);
    }
  }
  const documents: EmitParams[] = [];
  trimmed.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      documents.push(JSON.parse(line) as EmitParams);
    } catch (error) {
      throw fail(`${path} line ${i + 1} is not valid JSON: ${(error as Error).message}`);
    }
  });
  if (documents.length === 0) throw fail(`${path} has no documents.`);
  return documents;
}
