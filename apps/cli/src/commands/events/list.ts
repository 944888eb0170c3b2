import { Flags } from "@oclif/core";
import type { EventKind } from "@timbre/sdk";
import { TimbreCommand } from "../../lib/base-command.js";
import { collect, listFlags, pageFooter } from "../../lib/list-flags.js";
import { renderTable } from "../../lib/table.js";

export default class EventsList extends TimbreCommand<typeof EventsList> {
  static override summary = "List webhook events with their delivery attempts";
  static override examples = ["<%= config.bin %> events list", "<%= config.bin %> events list --event dte.status_changed --limit 50 --json"];
  static override flags = {
    ...listFlags,
    event: Flags.option({ options: ["dte.status_changed", "dte.acceptance_changed", "numeration.low", "numeration.expiring", "certificate.expiring"] as const })(),
  };

  async run() {
    this.requireBusiness();
    const client = await this.client();
    const params = { page: this.flags.page, limit: this.flags.limit, event: this.flags.event as EventKind | undefined };
    const page = await collect(client.events.list(params), this.flags.all);
    return this.output(page, (p) =>
      p.data.length === 0
        ? "No events yet."
        : `${renderTable(p.data, [
            { header: "ID", get: (e) => e.id },
            { header: "EVENT", get: (e) => e.event },
            { header: "CREATED", get: (e) => e.created_at },
            { header: "SUMMARY", get: (e) => summarize(e) },
            { header: "DELIVERIES", get: (e) => deliveries(e.deliveries ?? []) },
          ])}\n${pageFooter(p)}`,
    );
  }
}

function summarize(event: { event: string; data: Record<string, unknown> | object }): string {
  const data = event.data as Record<string, unknown>;
  if (event.event === "dte.status_changed" || event.event === "dte.acceptance_changed") {
    return `${data["tipo"]}/${data["folio"]} ${data["old_status"] ?? "∅"} → ${data["new_status"]}`;
  }
  return "";
}

function deliveries(list: Array<{ ok: boolean; status_code: number | null }>): string {
  if (list.length === 0) return "—";
  const last = list.at(-1);
  return `${list.length} (last ${last?.ok ? "ok" : "failed"}${last?.status_code ? ` ${last.status_code}` : ""})`;
}
