import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { chooseOutput, writeOutput } from "../../lib/files.js";

export default class ReceivedPdf extends TimbreCommand<typeof ReceivedPdf> {
  static override summary = "Download Timbre's printed PDF of a received document";
  static override description =
    "Writes to -o FILE; without -o, to stdout when stdout is a pipe or a file (`> recibida.pdf`), and at a terminal it asks for -o instead of printing binary. Never into the current folder unasked.";
  static override examples = ["<%= config.bin %> received pdf rcv_01jd… -o recibida.pdf", "<%= config.bin %> received pdf rcv_01jd… --formato termica > recibida.pdf"];
  static override args = { id: Args.string({ description: "received document id (rcv_…)", required: true }) };
  static override flags = {
    output: Flags.string({ char: "o", description: "file to write, - for stdout [default: stdout when it is not a terminal]" }),
    formato: Flags.option({ options: ["carta", "termica"] as const, description: "page format" })(),
  };

  async run() {
    this.requireBusiness();
    const path = chooseOutput(this.flags.output, { binary: true, json: this.jsonEnabled() });
    const pdf = await (await this.client()).received.pdf(this.args.id, this.flags.formato ? { formato: this.flags.formato } : {});
    writeOutput(path, pdf);
    const result = { id: this.args.id, path, bytes: pdf.byteLength };
    if (path === "-") return result;
    return this.output(result, (r) => `Wrote ${r.path} (${r.bytes} bytes).`);
  }
}
