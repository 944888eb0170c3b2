import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderDte } from "../../lib/dte-view.js";

export default class DteAnular extends TimbreCommand<typeof DteAnular> {
  static override summary = "Annul a document by issuing its credit note (61)";
  static override examples = ["<%= config.bin %> dte anular dte_01jd…", "<%= config.bin %> dte anular dte_01jd… --idempotency-key anula-F33-120 --json"];
  static override args = { id: Args.string({ description: "document to annul (dte_…)", required: true }) };
  static override flags = {
    "idempotency-key": Flags.string({ description: "reuse this key to make the annulment safe to repeat" }),
  };

  async run() {
    this.requireBusiness();
    const key = this.flags["idempotency-key"];
    const nota = await (await this.client()).dte.anular(this.args.id, key ? { idempotencyKey: key } : undefined);
    return this.output(nota, (n) => `Issued credit note ${n.id} annulling ${this.args.id}.\n\n${renderDte(n)}`);
  }
}
