import { basename } from "node:path";
import { Flags } from "@oclif/core";
import type { Numeration, TipoDte } from "@timbre/sdk";
import { CommandFailure, EXIT, TimbreCommand } from "../../lib/base-command.js";
import { resolveBusinessId } from "../../lib/business.js";
import { readInput } from "../../lib/files.js";
import { renderFields } from "../../lib/table.js";

export default class NumerationsUpload extends TimbreCommand<typeof NumerationsUpload> {
  static override summary = "Upload a CAF file from the SII (or issue one from the sandbox)";
  static override examples = [
    "<%= config.bin %> numerations upload --file FoliosSII76192083339.xml",
    "<%= config.bin %> numerations upload --sandbox --tipo 39 --cantidad 500",
  ];
  static override flags = {
    file: Flags.string({ char: "f", description: "CAF XML file as downloaded from the SII", exclusive: ["sandbox"] }),
    sandbox: Flags.boolean({ description: "ask the SII sandbox for a new CAF (test environment, sandbox servers only)", default: false }),
    tipo: Flags.integer({ description: "document type for --sandbox", dependsOn: ["sandbox"] }),
    cantidad: Flags.integer({ description: "folios for --sandbox", default: 100, min: 1, max: 100_000 }),
  };

  async run() {
    const client = await this.client();
    let numeration: Numeration;
    if (this.flags.sandbox) {
      if (this.flags.tipo === undefined) throw usage("--sandbox needs --tipo (33, 34, 39, 41, 56, 61).");
      numeration = await client.sandbox.numerations.create({ tipo: this.flags.tipo as TipoDte, cantidad: this.flags.cantidad });
    } else {
      if (!this.flags.file) throw usage("Pass --file caf.xml, or --sandbox --tipo N.");
      const file = readInput(this.flags.file);
      const id = await resolveBusinessId(client, this.flags.business, this.stored.businessId);
      numeration = await client.businesses.numerations.create(id, { file, filename: basename(this.flags.file) });
    }
    return this.output(numeration, (n) =>
      `Numeration ${n.id} stored.\n\n${renderFields({ tipo: n.tipo, folios: `${n.desde}–${n.hasta}`, disponibles: n.disponibles, vence_el: n.vence_el ?? "never", environment: n.environment })}`,
    );
  }
}

function usage(message: string) {
  return new CommandFailure(message, { code: "MISSING_FLAGS", message }, EXIT.usage);
}
