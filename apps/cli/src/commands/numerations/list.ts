import { Flags } from "@oclif/core";
import type { NumerationStatus, TipoDte } from "@timbre/sdk";
import { TimbreCommand } from "../../lib/base-command.js";
import { resolveBusinessId } from "../../lib/business.js";
import { collect, listFlags, pageFooter } from "../../lib/list-flags.js";
import { renderTable } from "../../lib/table.js";

export default class NumerationsList extends TimbreCommand<typeof NumerationsList> {
  static override summary = "List CAF folio ranges of a business";
  static override examples = ["<%= config.bin %> numerations list", "<%= config.bin %> numerations list --tipo 33 --estado activa --json"];
  static override flags = {
    ...listFlags,
    tipo: Flags.integer({ description: "document type (33, 34, 39, 41, 56, 61)" }),
    estado: Flags.option({ options: ["activa", "agotada", "vencida"] as const, description: "range status" })(),
  };

  async run() {
    const client = await this.client();
    const id = await resolveBusinessId(client, this.flags.business, this.stored.businessId);
    const params = {
      page: this.flags.page,
      limit: this.flags.limit,
      tipo: this.flags.tipo as TipoDte | undefined,
      estado: this.flags.estado as NumerationStatus | undefined,
    };
    const page = await collect(client.businesses.numerations.list(id, params), this.flags.all);
    return this.output(page, (p) =>
      p.data.length === 0
        ? "No numerations. Upload a CAF with `timbre numerations upload --file caf.xml`."
        : `${renderTable(p.data, [
            { header: "ID", get: (n) => n.id },
            { header: "TIPO", get: (n) => n.tipo, align: "right" },
            { header: "RANGO", get: (n) => `${n.desde}–${n.hasta}` },
            { header: "SIGUIENTE", get: (n) => n.siguiente_folio, align: "right" },
            { header: "DISPONIBLES", get: (n) => n.disponibles, align: "right" },
            { header: "ESTADO", get: (n) => n.estado },
            { header: "VENCE", get: (n) => n.vence_el ?? "—" },
            { header: "ENV", get: (n) => n.environment },
          ])}\n${pageFooter(p)}`,
    );
  }
}
