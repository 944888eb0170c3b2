import { Flags } from "@oclif/core";
import type { BatchPreviewItem, BatchResultItem, Dte, DteStatus, EmitParams, Totals } from "@timbre/sdk";
import { EMISSION_SHEET_COLUMNS, emissionSheetTemplate, rowSpan, type Separator } from "@timbre/sdk/csv";
import { CommandFailure, TimbreCommand } from "../../lib/base-command.js";
import { problemsOf, readBatchInput, type BatchInput, type Problem } from "../../lib/batch-input.js";
import { defaultFailedPath, writeFailedFile } from "../../lib/failed-file.js";
import { readInput } from "../../lib/files.js";
import { ProgressBar } from "../../lib/progress.js";
import { waitForBatch } from "../../lib/wait-for-batch.js";
import { TIPO_NAMES } from "../../lib/dte-view.js";
import { formatPesos, renderTable } from "../../lib/table.js";

interface Outcome {
  index: number;
  /** CSV rows, JSONL line or array position of the document. */
  rows: number[];
  success: boolean;
  data?: Dte;
  totals?: Totals;
  problems?: Problem[];
  /** Emitted before from the same document (its content key): answered as it was, no folio taken now. */
  replayed?: boolean;
  /** A dry run's document emitted before: its folio. */
  emitted_folio?: number;
}

export default class DteBatch extends TimbreCommand<typeof DteBatch> {
  /** Batch requests of the emission. */
  private requests = 0;

  static override summary = "Emit many documents from a spreadsheet (CSV or Excel .xlsx) or a JSON Lines file";
  static override description =
    "A spreadsheet (CSV, or the first sheet of an Excel .xlsx) has one row per line of a document and columns named as the emission request's fields (tipo, rut, " +
    "razon_social, nombre, cantidad, precio, …; `--template` prints one to start from); `,` or `;`, UTF-8 or " +
    "Windows-1252, numbers as typed in Chile (2,5 and 12.990). A JSON Lines file has one emission request per line " +
    "(a JSON array works too). The whole file is read first: a file with problems sends nothing.\n\n" +
    "Documents go in chunks of up to 500 and 1 MB (the API's limits), each document under an idempotency key made from its " +
    "content (and its place among equal documents), so sending the file again within 24 h — after an interruption, or " +
    "fixed after some rows failed — emits only the documents not emitted before; the others show their folios as they " +
    "were (`--again` emits every document anew). The failed documents are also written beside the file " +
    "(ventas.csv → ventas.fallidos.csv, with an error column). Exits with status 1 when any document failed.";
  static override examples = [
    "<%= config.bin %> dte batch --template > ventas.csv",
    "<%= config.bin %> dte batch --columns",
    "<%= config.bin %> dte batch --file ventas.csv --dry-run",
    "<%= config.bin %> dte batch --file ventas.csv",
    "<%= config.bin %> dte batch --file ventas.csv --wait",
    "<%= config.bin %> dte batch --file boletas.jsonl --chunk-size 100 --json",
  ];
  static override flags = {
    file: Flags.string({ char: "f", description: "CSV, Excel .xlsx, JSON Lines or JSON array file", exactlyOne: ["file", "template", "columns"] }),
    columns: Flags.boolean({ description: "list the columns a CSV may have, with what each holds, and exit" }),
    template: Flags.boolean({ description: "print a CSV to start from (every column, a factura and a boleta) and exit" }),
    separator: Flags.string({ description: "separator of --template [default: ; which Excel in Chile opens as it is]", options: [";", ",", "tab"] }),
    "dry-run": Flags.boolean({ description: "check every document with the API as the batch would (certificate and folios included) and show its totals; takes no folio" }),
    "chunk-size": Flags.integer({ description: "documents per request", default: 500, min: 1, max: 500 }),
    again: Flags.boolean({ description: "emit every document anew, even one emitted from the same content in the last 24 h" }),
    wait: Flags.boolean({ description: "then wait until the SII accepts or rejects every document emitted; exits 1 if any is RECHAZADO" }),
    interval: Flags.integer({ description: "seconds between polls with --wait", default: 5, min: 1 }),
    timeout: Flags.integer({ description: "give up waiting after this many seconds", default: 600, min: 1 }),
    "failed-file": Flags.string({ description: "where to write the failed documents [default: beside the file, <name>.fallidos.csv|jsonl]" }),
  };

  async run() {
    if (this.flags.template) {
      const separator = this.flags.separator === "tab" ? "\t" : ((this.flags.separator ?? ";") as Separator);
      process.stdout.write(`\uFEFF${emissionSheetTemplate(separator)}`); // the BOM tells Excel it is UTF-8
      return undefined;
    }
    if (this.flags.columns) {
      return this.output(EMISSION_SHEET_COLUMNS, (columns) =>
        renderTable(columns, [
          { header: "COLUMN", get: (c) => c.name },
          { header: "OR", get: (c) => c.short },
          { header: "PER", get: (c) => (c.level === "item" ? "line" : "document") },
          { header: "HOLDS", get: (c) => c.help },
        ]),
      );
    }
    const path = this.flags.file!;
    const input = await readBatchInput(readInput(path), path);
    this.requireBusiness();
    const outcomes = this.flags["dry-run"] ? await this.preview(input) : await this.emit(input);
    if (this.flags.wait && !this.flags["dry-run"]) await this.waitForSii(outcomes);
    const failed = outcomes.filter((o) => !o.success);
    if (failed.length > 0) process.exitCode = 1;
    const failedFile = !this.flags["dry-run"] && failed.length > 0 ? (this.flags["failed-file"] ?? defaultFailedPath(path, input.kind)) : undefined;
    if (failedFile) writeFailedFile(failedFile, input, failed.map((o) => ({ document: input.documents[o.index]!, problems: o.problems ?? [] })));
    const ok = outcomes.filter((o) => o.success);
    const summary = {
      total: outcomes.length,
      // A dry run's valid documents (those emitted before included); an emission's new documents.
      [this.flags["dry-run"] ? "valid" : "emitted"]: this.flags["dry-run"] ? ok.length : ok.filter((o) => !o.replayed).length,
      failed: failed.length,
      monto_total: ok.reduce((sum, o) => sum + (o.data?.monto_total ?? o.totals?.monto_total ?? 0), 0),
      ...(failedFile ? { failed_file: failedFile } : {}),
      ...(this.flags["dry-run"] ? {} : { requests: this.requests }),
      replayed: outcomes.filter((o) => o.replayed).length,
      results: outcomes,
    };
    return this.output(summary, () => this.describe(input, outcomes, summary.monto_total, failedFile));
  }

  /** Emits every document (each keyed by its content; see `--again`). */
  private async emit(input: BatchInput): Promise<Outcome[]> {
    const client = await this.client();
    const results = await this.withProgress<BatchResultItem>(input, "failed", async (onProgress) => {
      const answer = await client.dte.batchAll(input.documents.map((d) => d.params), { chunkSize: this.flags["chunk-size"], contentKeys: !this.flags.again, onProgress });
      this.requests = answer.requests;
      return answer;
    });
    return outcomesOf(input, results, (r) => ({ ...(r.data ? { data: r.data } : {}), ...(r.replayed ? { replayed: true } : {}) }));
  }

  /** `--wait`: each emitted document's final SII state written into its outcome (`lib/wait-for-batch.ts`). */
  private async waitForSii(outcomes: Outcome[]): Promise<void> {
    const emitted = outcomes.flatMap((o) => (o.data ? [o.data] : []));
    if (emitted.length === 0) return;
    const progress = new ProgressBar(emitted.length, process.stderr, !this.jsonEnabled());
    let states: Map<string, DteStatus>;
    try {
      states = await waitForBatch(await this.client(), emitted, {
        intervalMs: this.flags.interval * 1000,
        timeoutMs: this.flags.timeout * 1000,
        onPoll: (final) => progress.update(final, "answered by the SII"),
      });
    } catch (error) {
      // Out of time: the run's results (and its failed rows) still matter more than the wait.
      if (!(error instanceof CommandFailure) || error.info.code !== "WAIT_TIMEOUT") throw error;
      progress.finish();
      this.warn(`${error.message}. ${error.info.hint ?? ""}`);
      process.exitCode = 1;
      return;
    }
    progress.finish();
    for (const o of outcomes) if (o.data) o.data = { ...o.data, estado: states.get(o.data.id) ?? o.data.estado };
    if (emitted.some((d) => states.get(d.id) === "RECHAZADO")) process.exitCode = 1;
  }

  /** The API's check of every document (`POST /dte/batch/preview`): totals or the error the batch would give; no folio. */
  private async preview(input: BatchInput): Promise<Outcome[]> {
    const client = await this.client();
    const results = await this.withProgress<BatchPreviewItem>(input, "with problems", (onProgress) =>
      client.dte.batchPreviewAll(input.documents.map((d) => d.params), { chunkSize: this.flags["chunk-size"], contentKeys: !this.flags.again, onProgress }),
    );
    return outcomesOf(input, results, (r) => ({
      ...(r.data ? { totals: r.data.totals } : {}),
      ...(r.replayed ? { replayed: true } : {}),
      ...(r.data?.document ? { emitted_folio: r.data.document.folio } : {}),
    }));
  }

  /** Runs `work` with a progress bar on stderr (not with --json) counting its results and those that did not succeed. */
  private async withProgress<R extends { success: boolean }>(
    input: BatchInput,
    unsuccessful: string,
    work: (onProgress: (done: readonly R[]) => void) => Promise<{ results: R[] }>,
  ): Promise<R[]> {
    const progress = new ProgressBar(input.documents.length, process.stderr, !this.jsonEnabled());
    progress.update(0);
    const { results } = await work((done) => progress.update(done.length, `${done.filter((r) => !r.success).length} ${unsuccessful}`));
    progress.finish();
    return results;
  }

  private describe(input: BatchInput, outcomes: Outcome[], montoTotal: number, failedFile: string | undefined): string {
    const failed = outcomes.filter((o) => !o.success);
    const dry = this.flags["dry-run"];
    const before = outcomes.filter((o) => o.replayed).length;
    const fresh = outcomes.length - failed.length - before;
    const counts = [`${fresh} ${dry ? "to emit" : "emitted"}`, ...(before > 0 ? [`${before} emitted before`] : []), `${failed.length} ${dry ? "with problems" : "failed"}`];
    const lines = [`${counts.join(", ")}, of ${outcomes.length} (total ${formatPesos(montoTotal)}).`];
    const place = input.place.toUpperCase();
    if (!dry) lines.push(...foliosByTipo(outcomes));
    if (!dry && this.flags.wait) lines.push(...siiVerdict(outcomes, input.place));
    if (dry) {
      lines.push("", renderTable(outcomes, [
        { header: place, get: (o) => rowSpan(o.rows), align: "right" },
        { header: "TIPO", get: (o) => input.documents[o.index]!.params.tipo },
        { header: "RECEPTOR", get: (o) => receptorOf(input.documents[o.index]!.params) },
        { header: "TOTAL", get: (o) => (o.totals ? formatPesos(o.totals.monto_total) : "—"), align: "right" },
        ...(before > 0 ? [{ header: "EMITTED BEFORE", get: (o: Outcome) => (o.emitted_folio !== undefined ? `folio ${o.emitted_folio}` : "") }] : []),
      ]));
    }
    const problems = failed.flatMap((o) => o.problems ?? []);
    if (problems.length > 0) {
      lines.push("", renderTable(problems, [
        { header: place, get: (p) => p.at, align: "right" },
        { header: "CODE", get: (p) => p.code },
        { header: "MESSAGE", get: (p) => p.message },
      ]));
    }
    if (failedFile) {
      const where = input.sheet ? " with the reasons in its error column" : "";
      const them = failed.length === 1 ? "it" : "them";
      lines.push("", `The ${failed.length} failed document${failed.length === 1 ? " is" : "s are"} in ${failedFile}${where}. Fix ${them} there and run \`timbre dte batch --file ${failedFile}\`, or fix ${them} in ${this.flags.file} and send it whole: within 24 h what was emitted is not emitted again.`);
    }
    if (!dry && before > 0) {
      lines.push("", `${before} document${before === 1 ? " was" : "s were"} emitted before from the same content (within 24 h): shown with ${before === 1 ? "its folio" : "their folios"}, not emitted again. \`--again\` emits every document anew.`);
    } else if (!dry && !this.flags.again && failed.length === 0) lines.push("", "Sending this file again within 24 h emits nothing twice: it shows these documents.");
    return lines.join("\n");
  }
}


/** "Boleta electrónica (39): 2 000 documents, folios 1–2000." per tipo emitted (the lowest and highest folio). */
function foliosByTipo(outcomes: readonly Outcome[]): string[] {
  const byTipo = new Map<number, number[]>();
  for (const o of outcomes) if (o.data) byTipo.set(o.data.tipo, [...(byTipo.get(o.data.tipo) ?? []), o.data.folio]);
  return [...byTipo].sort(([a], [b]) => a - b).map(([tipo, folios]) => {
    const [low, high] = [Math.min(...folios), Math.max(...folios)];
    const range = low === high ? `folio ${low}` : `folios ${low}–${high}`;
    return `${TIPO_NAMES[tipo] ?? `Tipo ${tipo}`} (${tipo}): ${folios.length} document${folios.length === 1 ? "" : "s"}, ${range}.`;
  });
}

/** After `--wait`: "SII: 1 998 ACEPTADO, 2 RECHAZADO." and the rejected documents at their rows. */
function siiVerdict(outcomes: readonly Outcome[], place: BatchInput["place"]): string[] {
  const emitted = outcomes.filter((o) => o.data);
  if (emitted.length === 0) return [];
  const counts = new Map<string, number>();
  for (const o of emitted) counts.set(o.data!.estado, (counts.get(o.data!.estado) ?? 0) + 1);
  const lines = [`SII: ${[...counts].map(([estado, n]) => `${n} ${estado}`).join(", ")}.`];
  for (const o of emitted.filter((e) => e.data!.estado === "RECHAZADO")) {
    lines.push(`  ${place} ${rowSpan(o.rows)}: ${TIPO_NAMES[o.data!.tipo] ?? `Tipo ${o.data!.tipo}`} folio ${o.data!.folio} RECHAZADO — \`timbre dte status ${o.data!.id}\` says why`);
  }
  return lines;
}

/** API results as outcomes at the documents' places, problems at their rows. */
function outcomesOf<R extends BatchResultItem | BatchPreviewItem>(input: BatchInput, results: readonly R[], found: (result: R) => Partial<Outcome>): Outcome[] {
  return results.map((result) => {
    const document = input.documents[result.index]!;
    return {
      index: result.index,
      rows: document.rows,
      success: result.success,
      ...found(result),
      ...(result.error ? { problems: problemsOf(document, result.error) } : {}),
    };
  });
}

function receptorOf(params: EmitParams): string {
  return [params.receptor?.rut, params.receptor?.razon_social].filter(Boolean).join(" ");
}

