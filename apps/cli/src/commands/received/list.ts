import { Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { collect, listFlags, pageFooter } from "../../lib/list-flags.js";
import { deadline } from "../../lib/received-view.js";
import { formatPesos, renderTable } from "../../lib/table.js";

export default class ReceivedList extends TimbreCommand<typeof ReceivedList> {
  static override summary = "List the documents suppliers sent you, newest first, with the deadline to decide";
  static override description =
    "PLAZO is plazo_hasta: the end of the 8 days to accept or claim (blank until the SII has the document). Estados: SIN_RESPUESTA, ACEPTADO, RECLAMADO, ACEPTADO_TACITO, NO_APLICA.";
  static override examples = [
    "<%= config.bin %> received list",
    "<%= config.bin %> received list --estado SIN_RESPUESTA --all",
    "<%= config.bin %> received list --emisor-rut 76192083-9 --tipo 33 --desde 2026-11-01 --hasta 2026-11-30 --json",
  ];
  static override flags = {
    ...listFlags,
    "emisor-rut": Flags.string({ description: "the supplier's RUT" }),
    tipo: Flags.integer({ description: "document type" }),
    estado: Flags.option({ options: ["SIN_RESPUESTA", "ACEPTADO", "RECLAMADO", "ACEPTADO_TACITO", "NO_APLICA"] as const })(),
    desde: Flags.string({ description: "from tax date YYYY-MM-DD (inclusive)" }),
    hasta: Flags.string({ description: "to tax date YYYY-MM-DD (inclusive)" }),
  };

  async run() {
    this.requireBusiness();
    const { page, limit, tipo, estado, desde, hasta } = this.flags;
    const params = { page, limit, emisor_rut: this.flags["emisor-rut"], tipo: tipo === undefined ? undefined : String(tipo), estado, desde, hasta };
    const result = await collect((await this.client()).received.list(params), this.flags.all);
    return this.output(result, (p) =>
      p.data.length === 0
        ? "No received documents match."
        : `${renderTable(p.data, [
            { header: "ID", get: (d) => d.id },
            { header: "TIPO", get: (d) => d.tipo, align: "right" },
            { header: "FOLIO", get: (d) => d.folio, align: "right" },
            { header: "FECHA", get: (d) => d.fecha },
            { header: "EMISOR", get: (d) => `${d.emisor.razon_social} (${d.emisor.rut})` },
            { header: "TOTAL", get: (d) => formatPesos(d.monto_total), align: "right" },
            { header: "ESTADO", get: (d) => d.estado },
            { header: "PLAZO", get: (d) => deadline(d) },
          ])}\n${pageFooter(p)}`,
    );
  }
}
