import { Args } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderDteDetail } from "../../lib/dte-view.js";

export default class DteShow extends TimbreCommand<typeof DteShow> {
  static override summary = "Show a document with its items and history";
  static override examples = ["<%= config.bin %> dte show dte_01jd…", "<%= config.bin %> dte show dte_01jd… --json"];
  static override args = { id: Args.string({ description: "document id (dte_…)", required: true }) };

  async run() {
    this.requireBusiness();
    return this.output(await (await this.client()).dte.retrieve(this.args.id), renderDteDetail);
  }
}
