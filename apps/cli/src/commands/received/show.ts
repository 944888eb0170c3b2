import { Args } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderReceived } from "../../lib/received-view.js";

export default class ReceivedShow extends TimbreCommand<typeof ReceivedShow> {
  static override summary = "Show a received document: its checks (verificacion), its deadline (plazo_hasta) and its events";
  static override examples = ["<%= config.bin %> received show rcv_01jd…", "<%= config.bin %> received show rcv_01jd… --json"];
  static override args = { id: Args.string({ description: "received document id (rcv_…)", required: true }) };

  async run() {
    this.requireBusiness();
    return this.output(await (await this.client()).received.retrieve(this.args.id), renderReceived);
  }
}
