import { Flags } from "@oclif/core";
import type { Dte, DteStatusResult, EmitParams, Receptor, Timbre, Totals } from "@timbre/sdk";
import { CommandFailure, EXIT, TimbreCommand } from "../../lib/base-command.js";
import { renderDte, renderStatus } from "../../lib/dte-view.js";
import { readJsonFile, writeOutput } from "../../lib/files.js";
import { parseItem } from "../../lib/parse-item.js";
import { fillReceptor, receptorFieldFlags, receptorFromFlags } from "../../lib/receptor-flags.js";
import { StatusWatch } from "../../lib/progress.js";
import { formatPesos, renderFields } from "../../lib/table.js";

export default class DteEmit extends TimbreCommand<typeof DteEmit> {
  static override summary = "Emit a document from a JSON file, or a quick one from flags";
  static override description =
    "The request is sent with an idempotency key (generated, or --idempotency-key) so a retried emission never takes a second folio. " +
    "A quick factura to a RUT the business issued to before takes the receptor fields not given as flags from the last document to it (and says so on stderr). " +
    "Prices: the API reads `precio` as net (without IVA) unless the request says `precios_brutos: true`. A quick boleta (39/41) takes gross prices, " +
    "the price the customer pays, and sends `precios_brutos: true` (--net-prices sends false); any other quick document takes net prices. " +
    "Only a boleta may go to the anonymous consumer 66666666-6 (the default there); every other tipo needs --receptor-rut. Both are said on stderr.";
  static override examples = [
    "<%= config.bin %> dte emit --file invoice.json",
    '<%= config.bin %> dte emit --tipo 39 --item "Café:2:1500" --item "Medialuna:1:1200"',
    '<%= config.bin %> dte emit --tipo 52 --traslado 5 --receptor-rut 76192083-9 --item "Andamio:12:0"',
    '<%= config.bin %> dte emit --tipo 33 --receptor-rut 76192083-9 --receptor-razon-social "Tostaduría del Sur Ltda." --receptor-giro Comercio --receptor-direccion "Los Aromos 45" --receptor-comuna Temuco --item "Café en grano:3:12990" --forma-pago contado',
    "<%= config.bin %> dte emit --file invoice.json --wait --json",
    "<%= config.bin %> dte emit --file export-110.json   # 43, 46 and exports (110–112) from a JSON file of their API.md §13 shape",
    "<%= config.bin %> dte emit --file invoice.json --dry-run --pdf preview.pdf",
  ];
  static override flags = {
    file: Flags.string({ char: "f", description: "JSON file with the emission request", exclusive: ["item"] }),
    tipo: Flags.integer({ description: "document type for a quick document (default 39): 33, 34, 39, 41, 52, 56, 61; a 43, 46 or 110–112 comes from --file (a usage error here; the README has an example)" }),
    item: Flags.string({ description: 'line "nombre:cantidad:precio[:exento][:imp=CODE]" (repeatable; imp=27, 271, 24… an additional tax on a factura)', multiple: true }),
    "receptor-rut": Flags.string({ description: "receptor RUT; required except on boletas 39/41, which default to 66666666-6 (the anonymous consumer)" }),
    "receptor-razon-social": Flags.string({ description: "receptor name (default on boletas: \"Consumidor final\")" }),
    ...receptorFieldFlags,
    "forma-pago": Flags.option({ description: "payment term of a factura (default: the SII's, crédito)", options: ["contado", "credito", "sin-costo"] as const })(),
    "net-prices": Flags.boolean({ description: "a quick boleta's prices exclude IVA (sends precios_brutos: false); by default they include it (precios_brutos: true)", default: false }),
    fecha: Flags.string({ description: "tax date YYYY-MM-DD (default today in Chile)" }),
    traslado: Flags.integer({
      description: "a quick guía de despacho (--tipo 52): why the goods move — 1 venta, 2 venta por efectuar, 3 consignación, 4 entrega gratuita, 5 traslado interno, 6 otro traslado, 7 devolución, 8/9 exportación",
      min: 1,
      max: 9,
    }),
    observaciones: Flags.string({ description: "free text printed on the PDF" }),
    "idempotency-key": Flags.string({ description: "reuse this key to make the emission safe to repeat", exclusive: ["dry-run"] }),
    wait: Flags.boolean({ description: "wait until the SII accepts or rejects the document", default: false, exclusive: ["dry-run"] }),
    "dry-run": Flags.boolean({ description: "check the document and show its totals without emitting it: no folio taken, nothing stored", default: false }),
    pdf: Flags.string({ description: "with --dry-run: write the preview PDF (marked SIN VALIDEZ TRIBUTARIA) to this file, - for stdout" }),
  };

  async run() {
    // oclif counts a boolean's default as given, so `dependsOn: ["dry-run"]` would let --pdf emit for real.
    if (this.flags.pdf !== undefined && !this.flags["dry-run"]) {
      const message = "--pdf writes the preview of a --dry-run; the PDF of an emitted document is `timbre dte pdf <id>`.";
      throw new CommandFailure(message, { code: "USAGE", message }, EXIT.usage);
    }
    const fromFile = this.flags.file ? (readJsonFile(this.flags.file) as EmitParams) : null;
    this.requireBusiness();
    const client = await this.client();
    const params = fromFile ?? (await this.quickDocument(client));
    if (this.flags["dry-run"]) return this.dryRun(client, params);
    const options = this.flags["idempotency-key"] ? { idempotencyKey: this.flags["idempotency-key"] } : undefined;
    const dte = await client.dte.emit(params, options);
    let final: DteStatusResult | undefined;
    if (this.flags.wait) {
      const watch = new StatusWatch(`Waiting for the SII on folio ${dte.folio}`, process.stderr, !this.jsonEnabled());
      watch.update(dte.estado);
      try {
        final = await client.dte.waitForFinalStatus(dte.id, { onPoll: (s) => watch.update(s.estado) });
      } catch (error) {
        watch.stop("failed");
        throw error;
      }
      watch.stop(final.estado);
      if (final.estado === "RECHAZADO") process.exitCode = 1;
    }
    const result: Dte & { final_status?: DteStatusResult } = final ? { ...dte, estado: final.estado, final_status: final } : dte;
    return this.output(result, (r) =>
      [`Emitted ${r.id}.`, "", renderDte(r), ...(final ? ["", renderStatus(final)] : []), "", `PDF: timbre dte pdf ${r.id} -o DTE-${r.tipo}-${r.folio}.pdf`].join("\n"),
    );
  }

  /** `POST /dte/preview`: every problem the emission would report, or the totals (and the PDF with --pdf). */
  private async dryRun(client: Timbre, params: EmitParams) {
    const { totals, xml_preview } = await client.dte.preview(params);
    let pdf: { path: string; bytes: number } | undefined;
    if (this.flags.pdf) {
      const bytes = await client.dte.previewPdf(params);
      writeOutput(this.flags.pdf, bytes);
      pdf = { path: this.flags.pdf, bytes: bytes.byteLength };
    }
    const result = { dry_run: true as const, totals, xml_preview, ...(pdf ? { pdf } : {}) };
    if (pdf?.path === "-") return result; // stdout holds the PDF
    return this.output(result, (r) =>
      [
        "Dry run: nothing emitted, no folio taken.",
        "",
        renderTotals(r.totals),
        ...(r.pdf ? ["", `Wrote the preview PDF to ${r.pdf.path} (${r.pdf.bytes} bytes).`] : []),
        "",
        "Run the same command without --dry-run to emit it.",
      ].join("\n"),
    );
  }

  private async quickDocument(client: Timbre): Promise<EmitParams> {
    const specs = this.flags.item ?? [];
    if (specs.length === 0) {
      const message = 'Pass --file invoice.json, or at least one --item "nombre:cantidad:precio".';
      throw new CommandFailure(message, { code: "MISSING_FLAGS", message }, EXIT.usage);
    }
    let items;
    try {
      items = specs.map(parseItem);
    } catch (error) {
      const message = (error as Error).message;
      throw new CommandFailure(message, { code: "INVALID_ITEM", message }, EXIT.usage);
    }
    const tipo = (this.flags.tipo ?? 39) as EmitParams["tipo"];
    if (FILE_ONLY_TIPOS.has(tipo)) {
      const message = `A tipo ${tipo} is emitted from a JSON file: timbre dte emit --file ${tipo >= 110 ? "export" : `dte-${tipo}`}.json (its currency, customs codes, retentions or settled documents do not fit --item flags; the CLI's README has a ready example under «Exports, facturas de compra and liquidaciones-factura: from a file»).`;
      throw new CommandFailure(message, { code: "USAGE", message }, EXIT.usage);
    }
    const receipt = tipo === 39 || tipo === 41;
    const given = this.flags["receptor-rut"];
    if (!receipt && (given === undefined || isAnonymousConsumer(given))) {
      const message = `--receptor-rut is required on a tipo ${tipo}: ${ANONYMOUS_CONSUMER}, the anonymous consumer, may receive only boletas (39, 41); the SII refuses it on facturas, guías and notes.`;
      throw new CommandFailure(message, { code: "MISSING_FLAGS", message }, EXIT.usage);
    }
    const rut = given ?? ANONYMOUS_CONSUMER;
    // on stderr even with --json (stdout stays the document): what the command chose for the user
    if (receipt && given === undefined) process.stderr.write(`Receptor: ${ANONYMOUS_CONSUMER}, the anonymous consumer (pass --receptor-rut to name the buyer).\n`);
    if (receipt) {
      process.stderr.write(this.flags["net-prices"]
        ? "Prices: net, without IVA (precios_brutos: false).\n"
        : "Prices: gross, IVA included (precios_brutos: true; --net-prices for prices without IVA).\n");
    }
    let receptor = receptorFromFlags(this.flags);
    const needs = receipt ? ["razon_social"] : ["razon_social", "giro", "direccion", "comuna"];
    if (this.flags["receptor-rut"] && needs.some((f) => receptor[f as keyof Receptor] === undefined)) receptor = await this.knownReceptor(client, rut, receptor);
    const formaPago = this.flags["forma-pago"];
    return {
      tipo,
      // without a name a factura is left for the server to refuse ("receptor.razon_social is required")
      receptor: { ...receptor, rut, ...(receptor.razon_social === undefined && receipt ? { razon_social: "Consumidor final" } : {}) } as Receptor,
      items,
      ...(formaPago ? { forma_pago: ({ contado: 1, credito: 2, "sin-costo": 3 } as const)[formaPago] } : {}),
      ...(receipt ? { precios_brutos: !this.flags["net-prices"] } : {}),
      ...(this.flags.fecha ? { fecha: this.flags.fecha } : {}),
      ...(this.flags.observaciones ? { observaciones: this.flags.observaciones } : {}),
      ...(this.flags.traslado ? { traslado: { tipo: this.flags.traslado as NonNullable<EmitParams["traslado"]>["tipo"] } } : {}),
    };
  }

  /** Fills the receptor fields not given from the last document to `rut` (a lookup that fails leaves them to the server). */
  private async knownReceptor(client: Timbre, rut: string, given: Partial<Receptor>): Promise<Partial<Receptor>> {
    try {
      const last = (await client.dte.list({ receptor_rut: rut, limit: 1 })).data[0];
      if (!last) return given;
      const { receptor, taken } = fillReceptor(given, (await client.dte.retrieve(last.id)).receptor);
      // on stderr even with --json (oclif silences its own log then): stdout stays the document
      if (taken.length > 0) process.stderr.write(`Receptor ${taken.join(", ")} taken from the last document to ${rut} (tipo ${last.tipo} N° ${last.folio}, ${last.id}).\n`);
      return receptor;
    } catch {
      return given;
    }
  }
}

const ANONYMOUS_CONSUMER = "66666666-6";

/** Tipos whose request has its own shape (API.md §13): emitted from --file only. */
const FILE_ONLY_TIPOS: ReadonlySet<number> = new Set([43, 46, 110, 111, 112]);

function isAnonymousConsumer(rut: string): boolean {
  return rut.replace(/[.\s-]/g, "").replace(/^0+/, "").toUpperCase() === ANONYMOUS_CONSUMER.replace("-", "");
}

function renderTotals(totals: Totals): string {
  return renderFields({
    neto: formatPesos(totals.monto_neto),
    exento: formatPesos(totals.monto_exento),
    [`iva (${totals.tasa_iva} %)`]: formatPesos(totals.monto_iva),
    ...Object.fromEntries((totals.impuestos_adicionales ?? []).map((t) => [`impuesto ${t.codigo} (${t.tasa} %)`, formatPesos(t.monto)])),
    total: formatPesos(totals.monto_total),
  });
}
