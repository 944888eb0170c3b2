import { Flags } from "@oclif/core";
import type { Dte, DteStatus, TipoDte } from "@timbre/sdk";
import { documentsCsv } from "@timbre/sdk/csv";
import { TimbreCommand } from "../../lib/base-command.js";
import { collect, listFlags, pageFooter } from "../../lib/list-flags.js";
import { formatPesos, renderTable } from "../../lib/table.js";

export default class DteList extends TimbreCommand<typeof DteList> {
  static override summary = "List documents, newest first";
  static override examples = [
    "<%= config.bin %> dte list",
    "<%= config.bin %> dte list --tipo 33 --desde 2026-11-01 --hasta 2026-11-30",
    "<%= config.bin %> dte list --estado RECHAZADO --all --json",
    "<%= config.bin %> dte list --aceptacion RECLAMADO --all",
    "<%= config.bin %> dte list --desde 2026-11-01 --hasta 2026-11-30 --all --csv --separator ';' > noviembre.csv",
  ];
  static override flags = {
    ...listFlags,
    tipo: Flags.integer({ description: "document type" }),
    desde: Flags.string({ description: "from tax date YYYY-MM-DD (inclusive)" }),
    hasta: Flags.string({ description: "to tax date YYYY-MM-DD (inclusive)" }),
    estado: Flags.option({ options: ["PENDIENTE", "ENVIADO", "ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO"] as const })(),
    folio: Flags.integer({ description: "folio" }),
    "receptor-rut": Flags.string({ description: "receptor RUT" }),
    aceptacion: Flags.option({
      description: "the receiver's answer to a factura as last asked (RECLAMADO: the facturas its receiver claimed)",
      options: ["SIN_RESPUESTA", "ACEPTADO", "RECLAMADO", "ACEPTADO_TACITO"] as const,
    })(),
    csv: Flags.boolean({ description: "print CSV for a spreadsheet (one row per document, amounts as plain integers, UTF-8 with a BOM for Excel)", default: false, exclusive: ["json"] }),
    separator: Flags.string({ description: "CSV field separator (';' for Excel in Spanish)", options: [",", ";", "tab"], default: ",", dependsOn: ["csv"] }),
  };

  async run() {
    this.requireBusiness();
    const client = await this.client();
    const { page, limit, tipo, desde, hasta, estado, folio, aceptacion } = this.flags;
    const params = { page, limit, tipo: tipo as TipoDte | undefined, desde, hasta, estado: estado as DteStatus | undefined, folio, receptor_rut: this.flags["receptor-rut"], aceptacion };
    const result = await collect(client.dte.list(params), this.flags.all);
    if (this.flags.csv) {
      process.stdout.write(documentsCsv(result.data, this.flags.separator === "tab" ? "\t" : (this.flags.separator as "," | ";")));
      const { total } = result.pagination;
      // a spreadsheet of one page, silently, would look like the whole period
      if (total > result.data.length) process.stderr.write(`The CSV holds ${result.data.length} of ${total} documents (one page); add --all for every one.\n`);
      return result;
    }
    return this.output(result, (p) =>
      p.data.length === 0
        ? "No documents match."
        : `${renderTable(p.data, [
            { header: "ID", get: (d) => d.id },
            { header: "TIPO", get: (d) => d.tipo, align: "right" },
            { header: "FOLIO", get: (d) => d.folio, align: "right" },
            { header: "FECHA", get: (d) => d.fecha },
            { header: "RECEPTOR", get: (d) => d.receptor.razon_social },
            { header: "TOTAL", get: (d) => formatPesos(d.monto_total), align: "right" },
            { header: "ESTADO", get: (d) => d.estado },
          ])}\n${pageFooter(p)}`,
    );
  }
}
