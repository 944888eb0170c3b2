import { Flags } from "@oclif/core";
import type { TipoDte } from "@timbre/sdk";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderFields } from "../../lib/table.js";

export default class NumerationsSandbox extends TimbreCommand<typeof NumerationsSandbox> {
  static override summary = "Issue a CAF from the SII sandbox (test environment, servers with SII_MODE=sandbox)";
  static override description = "Same as `numerations upload --sandbox`.";
  static override examples = ["<%= config.bin %> numerations sandbox --tipo 33 --cantidad 100"];
  static override flags = {
    tipo: Flags.integer({ description: "document type (33, 34, 39, 41, 56, 61)", required: true }),
    cantidad: Flags.integer({ description: "number of folios", default: 100, min: 1, max: 100_000 }),
  };

  async run() {
    const client = await this.client();
    const numeration = await client.sandbox.numerations.create({ tipo: this.flags.tipo as TipoDte, cantidad: this.flags.cantidad });
    return this.output(numeration, (n) =>
      `Numeration ${n.id} issued by the sandbox.\n\n${renderFields({ tipo: n.tipo, folios: `${n.desde}–${n.hasta}`, disponibles: n.disponibles, vence_el: n.vence_el ?? "never", environment: n.environment })}`,
    );
  }
}
