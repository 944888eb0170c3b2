import { Args, Flags } from "@oclif/core";
import type { Intercambio } from "@timbre/sdk";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderFields } from "../../lib/table.js";

export default class DteSend extends TimbreCommand<typeof DteSend> {
  static override summary = "Send an accepted document (again) to its receiver, or to one address";
  static override description =
    "Mails the EnvioDTE addressed to the receiver and the PDF (boletas: the PDF and the XML, only to --email). Only once the SII accepted the document (else CONFLICT); at most 5 sends of one document a day. In the test environment mail goes only to Timbre's own intercambio addresses and the allow-list (else SIN_CORREO, with the reason).";
  static override examples = ["<%= config.bin %> dte send dte_01jd…", "<%= config.bin %> dte send dte_01jd… --email contabilidad@cliente.cl --json"];
  static override args = { id: Args.string({ description: "document id (dte_…)", required: true }) };
  static override flags = {
    email: Flags.string({ description: "one address to send it to [default: the receiver's intercambio address and receptor.email]" }),
  };

  async run() {
    this.requireBusiness();
    const { email } = this.flags;
    const delivery = await (await this.client()).dte.enviar(this.args.id, email ? { email } : {});
    return this.output(delivery, renderDelivery);
  }
}

function renderDelivery(d: Intercambio): string {
  return renderFields({
    estado: d.estado,
    destinatarios: d.destinatarios.join(", ") || "—",
    enviado_at: d.enviado_at ?? "—",
    intentos: d.intentos,
    ...(d.error ? { error: d.error } : {}),
    ...(d.respuestas.length ? { respuestas: d.respuestas.map((r) => `${r.tipo} ${r.codigo} ${r.glosa}`).join("; ") } : {}),
  });
}
