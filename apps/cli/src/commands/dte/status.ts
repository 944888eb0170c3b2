import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderStatus } from "../../lib/dte-view.js";
import { StatusWatch } from "../../lib/progress.js";

export default class DteStatus extends TimbreCommand<typeof DteStatus> {
  static override summary = "Show the SII status of a document, optionally waiting until it is final";
  static override description = "With --wait, exits with status 1 if the document ends RECHAZADO.";
  static override examples = [
    "<%= config.bin %> dte status dte_01jd…",
    "<%= config.bin %> dte status dte_01jd… --wait --interval 3",
  ];
  static override args = { id: Args.string({ description: "document id (dte_…)", required: true }) };
  static override flags = {
    refresh: Flags.boolean({ description: "ask the SII now", default: false }),
    wait: Flags.boolean({ description: "poll until ACEPTADO, ACEPTADO_CON_REPAROS or RECHAZADO", default: false }),
    interval: Flags.integer({ description: "seconds between polls with --wait", default: 2, min: 1 }),
    timeout: Flags.integer({ description: "give up waiting after this many seconds", default: 300, min: 1 }),
  };

  async run() {
    this.requireBusiness();
    const client = await this.client();
    if (!this.flags.wait) {
      return this.output(await client.dte.status(this.args.id, { refresh: this.flags.refresh }), renderStatus);
    }
    const watch = new StatusWatch(`Waiting for ${this.args.id}`, process.stderr, !this.jsonEnabled());
    try {
      const final = await client.dte.waitForFinalStatus(this.args.id, {
        interval: this.flags.interval * 1000,
        timeout: this.flags.timeout * 1000,
        onPoll: (status) => watch.update(status.estado),
      });
      watch.stop(final.estado);
      if (final.estado === "RECHAZADO") process.exitCode = 1;
      return this.output(final, renderStatus);
    } catch (error) {
      watch.stop("failed");
      throw error;
    }
  }
}
