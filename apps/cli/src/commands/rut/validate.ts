import { Args } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderFields } from "../../lib/table.js";

export default class RutValidate extends TimbreCommand<typeof RutValidate> {
  static override summary = "Validate a RUT's check digit and normalise it";
  static override description = "Exits with status 1 when the RUT is not valid.";
  static override examples = ["<%= config.bin %> rut validate 76.192.083-9", "<%= config.bin %> rut validate 761920839 --json"];
  static override args = { rut: Args.string({ description: "RUT with or without dots", required: true }) };

  async run() {
    const result = await (await this.client()).rut.validate({ rut: this.args.rut });
    if (!result.valid) process.exitCode = 1;
    return this.output(result, (r) =>
      r.valid
        ? renderFields({ valid: "yes", rut: r.rut, formateado: r.formateado })
        : renderFields({ valid: "no", dv_esperado: r.dv_esperado ?? "(not computable)" }),
    );
  }
}
