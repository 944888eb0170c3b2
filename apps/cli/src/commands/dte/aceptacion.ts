import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderAcceptance } from "../../lib/dte-view.js";

export default class DteAceptacion extends TimbreCommand<typeof DteAceptacion> {
  static override summary = "Show whether the receiver accepted or claimed a factura (SII registry, Ley 19.983)";
  static override description =
    "Estados: SIN_CONSULTAR, SIN_RESPUESTA (within the 8 days), ACEPTADO (ACD/ERM), RECLAMADO (RCD/RFP/RFT), ACEPTADO_TACITO (8 days without a claim), NO_APLICA (boletas, notes, rejected documents). Exits with status 1 when the factura is RECLAMADO.";
  static override examples = ["<%= config.bin %> dte aceptacion dte_01jd…", "<%= config.bin %> dte aceptacion dte_01jd… --refresh --json"];
  static override args = { id: Args.string({ description: "document id (dte_…)", required: true }) };
  static override flags = {
    refresh: Flags.boolean({ description: "ask the SII now", default: false }),
  };

  async run() {
    this.requireBusiness();
    const client = await this.client();
    const answer = await client.dte.acceptance(this.args.id, { refresh: this.flags.refresh });
    if (answer.estado === "RECLAMADO") process.exitCode = 1;
    return this.output(answer, renderAcceptance);
  }
}
