import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderReceived } from "../../lib/received-view.js";

export default class ReceivedClaim extends TimbreCommand<typeof ReceivedClaim> {
  static override summary = "Claim a received document in the SII's registry and answer the supplier";
  static override description = [
    "The claim actions (Ley 19.983, within the 8 days):",
    "  RCD  reclamo al contenido del documento: its content is wrong (prices, items, amounts, data)",
    "  RFP  reclamo por falta parcial de mercaderías: only part of the goods or services was received",
    "  RFT  reclamo por falta total de mercaderías: none of the goods or services was received",
    "The supplier gets the ResultadoDTE (rejected) with your motivo. A document already decided or past its plazo_hasta is refused (CONFLICT).",
  ].join("\n");
  static override examples = ['<%= config.bin %> received claim rcv_01jd… --accion RCD --motivo "Precio distinto al acordado"', '<%= config.bin %> received claim rcv_01jd… --accion RFT --motivo "No llegó la mercadería"'];
  static override args = { id: Args.string({ description: "received document id (rcv_…)", required: true }) };
  static override flags = {
    accion: Flags.option({ description: "RCD contenido, RFP falta parcial, RFT falta total", options: ["RCD", "RFP", "RFT"] as const, required: true })(),
    motivo: Flags.string({ description: "the reason the supplier reads (1–200 characters)", required: true }),
  };

  async run() {
    this.requireBusiness();
    const doc = await (await this.client()).received.claim(this.args.id, { accion: this.flags.accion, motivo: this.flags.motivo });
    return this.output(doc, (d) => `Claimed ${d.id} (${this.flags.accion}).\n\n${renderReceived(d)}`);
  }
}
