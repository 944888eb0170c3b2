import { TimbreCommand } from "../../lib/base-command.js";
import { collect, listFlags, pageFooter } from "../../lib/list-flags.js";
import { renderTable } from "../../lib/table.js";

export default class TokensList extends TimbreCommand<typeof TokensList> {
  static override summary = "List API keys";
  static override examples = ["<%= config.bin %> tokens list", "<%= config.bin %> tokens list --all --json"];
  static override flags = { ...listFlags };

  async run() {
    const client = await this.client();
    const page = await collect(client.tokens.list({ page: this.flags.page, limit: this.flags.limit }), this.flags.all);
    return this.output(page, (p) =>
      p.data.length === 0
        ? "No API keys. Create one with `timbre tokens create --name pos --permission dte:write`."
        : `${renderTable(p.data, [
            { header: "ID", get: (k) => k.id },
            { header: "NAME", get: (k) => k.name },
            { header: "KEY", get: (k) => `${k.prefix}…${k.last4}` },
            { header: "ENV", get: (k) => k.environment },
            { header: "PERMISSIONS", get: (k) => k.permissions.join(",") },
            { header: "LAST USED", get: (k) => k.last_used_at ?? "never" },
            { header: "REVOKED", get: (k) => k.revoked_at ?? "" },
          ])}\n${pageFooter(p)}`,
    );
  }
}
