import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderReceived } from "../../lib/received-view.js";

export default class ReceivedAccept extends TimbreCommand<typeof ReceivedAccept> {
  static override summary = "Accept a received document (ACD; with --recibo-mercaderias also ERM) and answer the supplier";
  static override description =
    "Registers the acceptance in the SII's registry (facturas 33, 34, 43) within the 8 days, and sends the supplier the ResultadoDTE; with --recibo-mercaderias also the recibo de mercaderías (Ley 19.983) signed for --recinto. A document already decided or past its plazo_hasta is refused (CONFLICT).";
  static override examples = [
    "<%= config.bin %> received accept rcv_01jd…",
    '<%= config.bin %> received accept rcv_01jd… --recibo-mercaderias --recinto "Bodega central"',
  ];
  static override args = { id: Args.string({ description: "received document id (rcv_…)", required: true }) };
  static override flags = {
    "recibo-mercaderias": Flags.boolean({ description: "also acknowledge receipt of the goods or services (ERM)", default: false }),
    recinto: Flags.string({ description: "where the goods were received (≤ 80 characters; default your business's address and comuna)", dependsOn: ["recibo-mercaderias"] }),
  };

  async run() {
    this.requireBusiness();
    const { recinto } = this.flags;
    const params = { ...(this.flags["recibo-mercaderias"] ? { recibo_mercaderias: true } : {}), ...(recinto !== undefined ? { recinto } : {}) };
    const doc = await (await this.client()).received.accept(this.args.id, params);
    return this.output(doc, (d) => `Accepted ${d.id}.\n\n${renderReceived(d)}`);
  }
}
