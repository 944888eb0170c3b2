import { Args, Flags } from "@oclif/core";
import type { AnularParams } from "@timbre/sdk";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderDte } from "../../lib/dte-view.js";
import { receptorFieldFlags, receptorFromFlags } from "../../lib/receptor-flags.js";

export default class DteAnular extends TimbreCommand<typeof DteAnular> {
  static override summary = "Annul a document by issuing its credit note (61)";
  static override description =
    "The note copies the document's receptor and items and references it with CodRef 1. A boleta to an anonymous consumer is annulled as it is: the note needs no giro or address.";
  static override examples = [
    "<%= config.bin %> dte anular dte_01jd…",
    '<%= config.bin %> dte anular dte_01jd… --razon "Error en el precio" --idempotency-key anula-F33-120 --json',
    '<%= config.bin %> dte anular dte_01jd… --receptor-direccion "Nueva 123" --receptor-comuna Ñuñoa',
  ];
  static override args = { id: Args.string({ description: "document to annul (dte_…)", required: true }) };
  static override flags = {
    razon: Flags.string({ description: 'reason printed in the reference (default "Anula documento", ≤ 90 characters)' }),
    fecha: Flags.string({ description: "tax date of the credit note YYYY-MM-DD (default today in Chile)" }),
    "idempotency-key": Flags.string({ description: "reuse this key to make the annulment safe to repeat" }),
    "receptor-razon-social": Flags.string({ description: "replace the copied receptor's name" }),
    ...receptorFieldFlags,
  };

  async run() {
    this.requireBusiness();
    const key = this.flags["idempotency-key"];
    const params: AnularParams = {
      ...(this.flags.razon !== undefined ? { razon: this.flags.razon } : {}),
      ...(this.flags.fecha !== undefined ? { fecha: this.flags.fecha } : {}),
    };
    // receptor fields that changed since the document (a new address): they replace the copied ones
    const receptor = receptorFromFlags(this.flags);
    if (Object.keys(receptor).length > 0) params.receptor = receptor;
    const nota = await (await this.client()).dte.anular(this.args.id, params, key ? { idempotencyKey: key } : undefined);
    return this.output(nota, (n) => `Issued credit note ${n.id} annulling ${this.args.id}.\n\n${renderDte(n)}`);
  }
}
