import { Flags } from "@oclif/core";
import type { SalesSummary } from "@timbre/sdk";
import { CommandFailure, EXIT, TimbreCommand } from "../../lib/base-command.js";
import { TIPO_NAMES } from "../../lib/dte-view.js";
import { monthRange } from "../../lib/month-range.js";
import { formatPesos, renderTable } from "../../lib/table.js";

export default class DteResumen extends TimbreCommand<typeof DteResumen> {
  static override summary = "Sales of a month by tipo, with the débito fiscal (IVA) for the F29";
  static override description =
    "Counts every document of the period except those the SII rejected; credit notes subtract. Documents still waiting for the SII are included and counted apart. Computed by the server in one request (GET /dte/resumen). A help for the monthly return, not the return.";
  static override examples = ["<%= config.bin %> dte resumen --mes 2026-11", "<%= config.bin %> dte resumen --desde 2026-11-01 --hasta 2026-11-15 --json"];
  static override flags = {
    mes: Flags.string({ description: "the month, YYYY-MM", exclusive: ["desde", "hasta"] }),
    desde: Flags.string({ description: "from tax date YYYY-MM-DD (inclusive)", dependsOn: ["hasta"] }),
    hasta: Flags.string({ description: "to tax date YYYY-MM-DD (inclusive)", dependsOn: ["desde"] }),
  };

  async run() {
    this.requireBusiness();
    const range = this.period();
    const client = await this.client();
    return this.output(await client.dte.summary(range), render);
  }

  private period(): { desde: string; hasta: string } {
    const { mes, desde, hasta } = this.flags;
    if (desde && hasta) return { desde, hasta };
    const range = mes ? monthRange(mes) : null;
    if (range) return range;
    const message = mes ? `--mes must be YYYY-MM (e.g. 2026-11), not "${mes}".` : "Say which period: --mes YYYY-MM, or --desde and --hasta.";
    throw new CommandFailure(message, { code: "VALIDATION_ERROR", message }, EXIT.usage);
  }
}

function render(s: SalesSummary): string {
  if (s.tipos.length === 0) return `No documents from ${s.desde} to ${s.hasta}${s.rechazados ? ` (${s.rechazados} rejected by the SII, not counted)` : ""}.`;
  const table = renderTable(s.tipos, [
    { header: "TIPO", get: (r) => `${r.tipo} ${TIPO_NAMES[r.tipo] ?? ""}${r.tipo === 61 ? " (resta)" : ""}` },
    { header: "DOCS", get: (r) => r.documentos, align: "right" },
    { header: "NETO", get: (r) => formatPesos(r.monto_neto), align: "right" },
    { header: "EXENTO", get: (r) => formatPesos(r.monto_exento), align: "right" },
    { header: "IVA", get: (r) => formatPesos(r.monto_iva), align: "right" },
    { header: "TOTAL", get: (r) => formatPesos(r.monto_total), align: "right" },
  ]);
  return [
    `Sales from ${s.desde} to ${s.hasta}`,
    "",
    table,
    "",
    `Débito fiscal (IVA): ${formatPesos(s.debito_fiscal)}`,
    ...(s.impuestos_adicionales ?? []).map((t) => `Impuesto adicional ${t.codigo} (${t.tasa} %) on ${formatPesos(t.base)}: ${formatPesos(t.monto)}`),
    `Total, credit notes subtracted: ${formatPesos(s.total_neto_de_notas)}`,
    ...(s.rechazados ? [`Not counted: ${s.rechazados} rejected by the SII.`] : []),
    ...(s.sin_respuesta ? [`Note: ${s.sin_respuesta} of these still wait for the SII's answer; the figures may change.`] : []),
  ].join("\n");
}
