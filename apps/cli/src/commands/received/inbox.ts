import { TimbreCommand } from "../../lib/base-command.js";
import { collect, listFlags, pageFooter } from "../../lib/list-flags.js";
import { renderTable } from "../../lib/table.js";

export default class ReceivedInbox extends TimbreCommand<typeof ReceivedInbox> {
  static override summary = "List the messages that reached you but could not be imported, with the reason (kept 30 days)";
  static override examples = ["<%= config.bin %> received inbox", "<%= config.bin %> received inbox --all --json"];
  static override flags = { ...listFlags };

  async run() {
    this.requireBusiness();
    const { page, limit } = this.flags;
    const result = await collect((await this.client()).received.inbox({ page, limit }), this.flags.all);
    return this.output(result, (p) =>
      p.data.length === 0
        ? "No messages were refused."
        : `${renderTable(p.data, [
            { header: "RECIBIDO", get: (m) => m.created_at },
            { header: "ORIGEN", get: (m) => m.source },
            { header: "DE", get: (m) => m.from ?? "" },
            { header: "ASUNTO", get: (m) => m.subject ?? m.filename ?? "" },
            { header: "MOTIVO", get: (m) => `${m.reason}${m.detail ? `: ${m.detail}` : ""}` },
          ])}\n${pageFooter(p)}`,
    );
  }
}
