import { TimbreCommand } from "../../lib/base-command.js";
import { collect, listFlags, pageFooter } from "../../lib/list-flags.js";
import { renderTable } from "../../lib/table.js";

export default class BusinessesList extends TimbreCommand<typeof BusinessesList> {
  static override summary = "List your businesses";
  static override examples = ["<%= config.bin %> businesses list", "<%= config.bin %> businesses list --all --json"];
  static override flags = { ...listFlags };

  async run() {
    const client = await this.client();
    const page = await collect(client.businesses.list({ page: this.flags.page, limit: this.flags.limit }), this.flags.all);
    const current = this.flags.business ?? this.stored.businessId;
    return this.output(page, (p) =>
      p.data.length === 0
        ? "No businesses yet. Create one with `timbre businesses create`."
        : `${renderTable(p.data, [
            { header: " ", get: (b) => (b.id === current ? "*" : "") },
            { header: "ID", get: (b) => b.id },
            { header: "RUT", get: (b) => b.rut },
            { header: "RAZÓN SOCIAL", get: (b) => b.razon_social },
            { header: "CERTIFICATE", get: (b) => (b.certificate ? `until ${b.certificate.valid_to.slice(0, 10)}` : "—") },
          ])}\n${pageFooter(p)}`,
    );
  }
}
