import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { chooseOutput, writeOutput } from "../../lib/files.js";

export default class DtePdf extends TimbreCommand<typeof DtePdf> {
  static override summary = "Download the PDF of a document";
  static override description =
    "Writes to -o FILE; without -o, to stdout when stdout is a pipe or a file (`> factura.pdf`), and at a terminal it asks for -o instead of printing binary. Never into the current folder unasked.";
  static override examples = [
    "<%= config.bin %> dte pdf dte_01jd… -o factura.pdf",
    "<%= config.bin %> dte pdf dte_01jd… --formato termica > boleta.pdf",
    "<%= config.bin %> dte pdf dte_01jd… --cedible -o cedible.pdf",
  ];
  static override args = { id: Args.string({ description: "document id (dte_…)", required: true }) };
  static override flags = {
    output: Flags.string({ char: "o", description: "file to write, - for stdout [default: stdout when it is not a terminal]" }),
    formato: Flags.option({ options: ["carta", "termica"] as const, description: "page format" })(),
    cedible: Flags.boolean({ description: "the transferable copy (33/34/52)", default: false }),
  };

  async run() {
    this.requireBusiness();
    const path = chooseOutput(this.flags.output, { binary: true, json: this.jsonEnabled() });
    const pdf = await (await this.client()).dte.pdf(this.args.id, {
      ...(this.flags.formato ? { formato: this.flags.formato } : {}),
      ...(this.flags.cedible ? { cedible: true } : {}),
    });
    writeOutput(path, pdf);
    const result = { id: this.args.id, path, bytes: pdf.byteLength };
    if (path === "-") return result;
    return this.output(result, (r) => `Wrote ${r.path} (${r.bytes} bytes).`);
  }
}
